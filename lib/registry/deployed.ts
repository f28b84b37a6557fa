// Operator actions that also create AWS identities on a deployed stage: a Cognito app client for
// a query-API client, an IoT thing with its certificate for an agent. The AWS side sits behind
// the two ports below (adapters: lib/adapters/aws-admin/). Throws AppError like lib/registry/admin.ts.
import { randomUUID } from 'node:crypto';
import { AppError } from '../core/errors';
import { checked, createAgent } from './admin';
import { agentIdSchema, customerIdSchema, plantIdSchema, type Agent, type QueryClient } from './model';
import type { Registry } from './ports';

export interface AppClientSecret {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Cognito user pool app clients (client credentials). */
export interface DeployedIdentity {
  createAppClient(input: { readonly name: string; readonly scope: string }): Promise<AppClientSecret>;
  deleteAppClient(clientId: string): Promise<void>;
}

export interface ThingCredentials {
  readonly thingName: string;
  readonly thingArn: string;
  readonly certificateId: string;
  readonly certificateArn: string;
  readonly certificatePem: string;
  readonly privateKey: string;
  /** The account's IoT Core data endpoint (ATS), for `gdm publish --endpoint`. */
  readonly endpoint: string;
}

/** IoT Core things: one per agent, named by its agentId, with its own certificate and the agent policy. */
export interface DeployedThings {
  createThing(input: { readonly thingName: string; readonly customerId: string }): Promise<ThingCredentials>;
}

async function plantsOf(
  registry: Registry,
  customerId: string,
  plantIds: readonly string[] | undefined,
): Promise<string[] | null> {
  const customer = await registry.getCustomer(checked(customerIdSchema, 'customer', customerId));
  if (!customer)
    throw new AppError('NOT_FOUND', `customer "${customerId}" does not exist`, {
      field: 'customer',
      value: customerId,
    });
  if (plantIds === undefined || plantIds.length === 0) return null;
  const wanted = [...new Set(plantIds.map((p) => checked(plantIdSchema, 'plants', p)))];
  const known = new Set((await registry.listPlants(customerId)).map((p) => p.plantId));
  const unknown = wanted.filter((p) => !known.has(p));
  if (unknown.length > 0)
    throw new AppError('INVALID_INPUT', `plants ${unknown.join(', ')} do not belong to customer "${customerId}"`, {
      field: 'plants',
      value: unknown.join(','),
    });
  return wanted;
}

/**
 * A query-API client on Cognito: the app client holds the secret (shown once), the registry maps
 * the client id to its customer and plants. If the registry refuses, the app client is deleted.
 */
export async function createCognitoClient(
  registry: Registry,
  identity: DeployedIdentity,
  input: { customerId: string; plantIds?: readonly string[]; name?: string; resource: string; now: Date },
): Promise<{ client: QueryClient; clientSecret: string }> {
  const plantIds = await plantsOf(registry, input.customerId, input.plantIds);
  const name = input.name ?? `client of ${input.customerId}`;
  const app = await identity.createAppClient({
    name: `${input.customerId}: ${name}`.slice(0, 128),
    scope: `${input.resource}/.default`,
  });
  const client: QueryClient = {
    clientId: app.clientId,
    customerId: input.customerId,
    name,
    plantIds,
    idp: 'cognito',
    createdAt: input.now.toISOString(),
  };
  try {
    await registry.createClient(client);
  } catch (error) {
    await identity.deleteAppClient(app.clientId).catch(() => undefined);
    throw error;
  }
  return { client, clientSecret: app.clientSecret };
}

/**
 * An agent with its IoT thing and certificate. The registry is checked first (customer exists,
 * agent id free), then the thing is made, then the agent recorded.
 * @throws AppError; if the last step fails, the message names the thing and certificate to remove.
 */
export async function createAgentWithThing(
  registry: Registry,
  things: DeployedThings,
  input: { customerId: string; agentId?: string; name?: string; now: Date },
): Promise<{ agent: Agent; thing: ThingCredentials }> {
  const customerId = checked(customerIdSchema, 'customer', input.customerId);
  const agentId = checked(agentIdSchema, 'agent', input.agentId ?? randomUUID());
  if (!(await registry.getCustomer(customerId)))
    throw new AppError('NOT_FOUND', `customer "${customerId}" does not exist`, {
      field: 'customer',
      value: customerId,
    });
  if (await registry.getAgent(agentId))
    throw new AppError('CONFLICT', `agent "${agentId}" already exists`, { field: 'agent', value: agentId });
  const thing = await things.createThing({ thingName: agentId, customerId });
  try {
    const agent = await createAgent(registry, {
      customerId,
      agentId,
      ...(input.name !== undefined ? { name: input.name } : {}),
      now: input.now,
    });
    return { agent, thing };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `IoT thing ${thing.thingName} and certificate ${thing.certificateId} were made, but the agent was not recorded (${message}); delete them in IoT Core and run again`,
    );
  }
}
