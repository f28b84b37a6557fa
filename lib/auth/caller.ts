// The caller of an API request, as the Lambda authorizers establish it and hand it to handlers
// through `event.requestContext.authorizer.lambda` (flat string values: API Gateway's simple
// responses). A refused request arrives as `{authError, authMessage}` and `callerOf` throws it,
// so every handler answers 401/403 with the spec's envelope (see docs/auth.md).
import { AppError } from '../core/errors';

export interface Caller {
  /** `jwt`: an OAuth client-credentials access token; `plant-token`: a maintenance bearer token. */
  readonly kind: 'jwt' | 'plant-token';
  readonly customerId: string;
  /** Plants the caller may use. For a client allowed every plant: all plants of its customer. */
  readonly plantIds: readonly string[];
  /** True for a client not limited to plants (its customer's plants at the time of the request). */
  readonly allPlants: boolean;
  readonly clientId?: string;
  readonly tokenId?: string;
}

export type AuthorizerContext = Readonly<Record<string, string>>;

export type RefusalCode = 'UNAUTHORIZED' | 'FORBIDDEN';

export function callerContext(caller: Caller): AuthorizerContext {
  return {
    kind: caller.kind,
    customerId: caller.customerId,
    plantIds: caller.plantIds.join(','),
    allPlants: String(caller.allPlants),
    ...(caller.clientId !== undefined ? { clientId: caller.clientId } : {}),
    ...(caller.tokenId !== undefined ? { tokenId: caller.tokenId } : {}),
  };
}

export function refusalContext(code: RefusalCode, message: string): AuthorizerContext {
  return { authError: code, authMessage: message };
}

interface EventWithAuthorizer {
  readonly requestContext?: {
    readonly authorizer?: { readonly lambda?: Readonly<Record<string, unknown>> | null } | null;
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The authenticated caller of a request; with `plantId`, also checks the caller may use that plant.
 * @throws AppError UNAUTHORIZED (no or bad credentials) or FORBIDDEN (not allowed), as the authorizer decided.
 * @throws Error when the route has no authorizer (a deployment mistake, answered with 500).
 */
export function callerOf(event: EventWithAuthorizer, options: { readonly plantId?: string } = {}): Caller {
  const context = event.requestContext?.authorizer?.lambda;
  if (!context) throw new Error('this route has no Lambda authorizer attached (see infra/functions/identity.yml)');
  const refusal = text(context.authError);
  if (refusal !== undefined) {
    const code: RefusalCode = refusal === 'FORBIDDEN' ? 'FORBIDDEN' : 'UNAUTHORIZED';
    throw new AppError(
      code,
      text(context.authMessage) ?? (code === 'FORBIDDEN' ? 'not allowed' : 'a valid access token is required'),
    );
  }
  const kind = text(context.kind);
  const customerId = text(context.customerId);
  if ((kind !== 'jwt' && kind !== 'plant-token') || !customerId)
    throw new Error('the authorizer context has no caller');
  const plantIds = (text(context.plantIds) ?? '').split(',').filter((p) => p !== '');
  const caller: Caller = {
    kind,
    customerId,
    plantIds,
    allPlants: context.allPlants === 'true' || context.allPlants === true,
    ...(text(context.clientId) !== undefined ? { clientId: text(context.clientId) } : {}),
    ...(text(context.tokenId) !== undefined ? { tokenId: text(context.tokenId) } : {}),
  };
  if (options.plantId !== undefined) checkPlantAccess(caller, options.plantId);
  return caller;
}

/** @throws AppError FORBIDDEN when the caller may not use the plant. */
export function checkPlantAccess(caller: Caller, plantId: string): void {
  if (!caller.plantIds.includes(plantId)) {
    throw new AppError('FORBIDDEN', `this access token does not give access to plant "${plantId}"`, {
      field: 'plantId',
      value: plantId,
    });
  }
}
