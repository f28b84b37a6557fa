// The decisions of the two Lambda REQUEST authorizers (payload 2.0, simple responses). Both
// return isAuthorized: true with either the caller or a refusal in the context; `callerOf` turns
// a refusal into 401/403 with the error envelope (docs/auth.md explains why). The only hard deny
// is a forged `sls-offline-authorizer-override` header, which serverless-offline would otherwise
// copy over the authorizer's context.
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { AppError, isAppError } from '../core/errors';
import type { Plant, QueryClient } from '../registry/model';
import type { Registry } from '../registry/ports';
import { checkMaintenanceToken } from '../registry/tokens';
import { verifyAccessToken, type TokenPolicy } from './access-token';
import { bearerToken, headerValue, looksLikeJwt } from './bearer';
import type { TokenVerifier } from './verified-token-cache';
import { callerContext, callerOf, refusalContext, type AuthorizerContext, type Caller } from './caller';

export interface AuthorizerDeps {
  readonly registry: Registry;
  readonly policy: () => Promise<TokenPolicy>;
  readonly now: () => Date;
  /** verifyAccessToken unless set; the functions set a cached one (verified-token-cache.ts). */
  readonly verify?: TokenVerifier;
  /** Called once per decision with ids and reasons only, never credentials. */
  readonly log: (message: string, attributes: Record<string, unknown>) => void;
  /**
   * Called instead of `log` for an accepted caller: a function that checks the token itself
   * (authenticateQuery) puts the caller's ids on its own request line rather than writing a second line.
   */
  readonly accepted?: (attributes: Record<string, unknown>) => void;
}

export interface SimpleAuthorizerResult {
  readonly isAuthorized: boolean;
  readonly context?: AuthorizerContext;
}

export type AuthorizerEvent = Pick<
  APIGatewayRequestAuthorizerEventV2,
  'headers' | 'pathParameters' | 'rawPath' | 'routeKey'
>;

const OVERRIDE_HEADER = 'sls-offline-authorizer-override';

async function clientCaller(deps: AuthorizerDeps, token: string): Promise<{ client: QueryClient; plants: Plant[] }> {
  const verified = await (deps.verify ?? verifyAccessToken)(token, await deps.policy(), deps.now());
  const client = await deps.registry.getClient(verified.clientId);
  if (!client) throw new AppError('UNAUTHORIZED', 'the access token belongs to no registered client');
  const plants = await deps.registry.listPlants(client.customerId);
  return { client, plants };
}

function jwtCaller(client: QueryClient, plants: readonly Plant[]): Caller {
  const own = plants.map((p) => p.plantId);
  return {
    kind: 'jwt',
    customerId: client.customerId,
    plantIds: client.plantIds === null ? own : client.plantIds.filter((p) => own.includes(p)),
    allPlants: client.plantIds === null,
    clientId: client.clientId,
  };
}

async function decide(
  event: AuthorizerEvent,
  deps: AuthorizerDeps,
  authorize: (token: string) => Promise<Caller>,
): Promise<SimpleAuthorizerResult> {
  if (headerValue(event.headers, OVERRIDE_HEADER) !== undefined) {
    deps.log('authorizer override header refused', { route: event.routeKey });
    return { isAuthorized: false };
  }
  try {
    const token = bearerToken(event.headers);
    if (token === undefined) throw new AppError('UNAUTHORIZED', "send 'Authorization: Bearer <access token>'");
    const caller = await authorize(token);
    const attributes = {
      route: event.routeKey,
      kind: caller.kind,
      customerId: caller.customerId,
      clientId: caller.clientId,
      tokenId: caller.tokenId,
    };
    if (deps.accepted) deps.accepted(attributes);
    else deps.log('caller authorized', attributes);
    return { isAuthorized: true, context: callerContext(caller) };
  } catch (error) {
    if (!isAppError(error) || (error.code !== 'UNAUTHORIZED' && error.code !== 'FORBIDDEN')) throw error;
    deps.log('caller refused', { route: event.routeKey, code: error.code, reason: error.message });
    return { isAuthorized: true, context: refusalContext(error.code, error.message) };
  }
}

/** Query API: a client-credentials JWT of a registered client; the caller gets the client's plants. */
export function authorizeQuery(event: AuthorizerEvent, deps: AuthorizerDeps): Promise<SimpleAuthorizerResult> {
  return decide(event, deps, async (token) => {
    if (!looksLikeJwt(token))
      throw new AppError('UNAUTHORIZED', 'the access token is not a JWT; request one from the token endpoint');
    const { client, plants } = await clientCaller(deps, token);
    return jwtCaller(client, plants);
  });
}

/**
 * The query API's decision taken inside the query function itself, for routes without a Lambda
 * authorizer (docs/auth.md, "The query routes check the token themselves"): exactly authorizeQuery's
 * checks and refusal log lines (an accepted caller goes to `deps.accepted` when given), read back
 * as callerOf reads an authorizer's context.
 * @throws AppError UNAUTHORIZED or FORBIDDEN, with the messages an authorizer's refusal gives;
 * FORBIDDEN for the serverless-offline override header, which an authorizer denies outright.
 */
export async function authenticateQuery(event: AuthorizerEvent, deps: AuthorizerDeps): Promise<Caller> {
  const result = await authorizeQuery(event, deps);
  if (!result.isAuthorized) throw new AppError('FORBIDDEN', `the ${OVERRIDE_HEADER} header is not accepted`);
  return callerOf({ requestContext: { authorizer: { lambda: result.context ?? null } } });
}

/** The path's plant id; undefined without one; null when its escapes do not decode. */
function pathPlant(event: AuthorizerEvent): string | null | undefined {
  const fromParameters = event.pathParameters?.plantId;
  if (fromParameters) return fromParameters;
  const match = /^\/maintenance\/v1\/plants\/([^/]+)/.exec(event.rawPath ?? '');
  if (match?.[1] === undefined) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/**
 * Maintenance API: a plant token (401 when missing or unknown; 403 for another plant, revoked or
 * expired), or a client-credentials JWT of a client allowed for the path's plant.
 */
export function authorizeMaintenance(event: AuthorizerEvent, deps: AuthorizerDeps): Promise<SimpleAuthorizerResult> {
  const pathPlantId = pathPlant(event);
  return decide(event, deps, async (token) => {
    if (pathPlantId === null)
      throw new AppError('FORBIDDEN', 'the plant id in the path is not a valid URL-encoded value');
    const plantId = pathPlantId;
    if (looksLikeJwt(token)) {
      const { client, plants } = await clientCaller(deps, token);
      const caller = jwtCaller(client, plants);
      if (plantId === undefined) return caller;
      if (!caller.plantIds.includes(plantId))
        throw new AppError('FORBIDDEN', `client ${client.clientId} is not allowed for plant "${plantId}"`, { plantId });
      return { ...caller, plantIds: [plantId] };
    }
    const check = await checkMaintenanceToken(deps.registry, token, deps.now());
    if (check.outcome === 'unknown') throw new AppError('UNAUTHORIZED', 'the access token is not valid');
    if (check.outcome === 'revoked')
      throw new AppError('FORBIDDEN', 'the access token has been revoked; ask the operator for a new one', {
        tokenId: check.token.tokenId,
      });
    if (check.outcome === 'expired')
      throw new AppError('FORBIDDEN', 'the access token has expired; ask the operator for a new one', {
        tokenId: check.token.tokenId,
      });
    if (plantId !== undefined && check.token.plantId !== plantId)
      throw new AppError('FORBIDDEN', `the access token is not valid for plant "${plantId}"`, { plantId });
    return {
      kind: 'plant-token',
      customerId: check.token.customerId,
      plantIds: [check.token.plantId],
      allPlants: false,
      tokenId: check.token.tokenId,
    };
  });
}
