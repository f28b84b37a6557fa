// A small tenant for auth tests, on DynamoDB Local: customer c1 with plants pA and pB, customer c2 with pC, a client
// of c1 for every plant, one limited to pA, a local signing key and the matching token policy.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalJWKSet } from 'jose';
import { signAccessToken, type TokenPolicy } from '../../lib/auth/access-token';
import type { AuthorizerDeps } from '../../lib/auth/authorize';
import { localSigningKey, type SigningKey } from '../../lib/auth/local-keys';
import { createCustomer, createLocalClient, createPlant } from '../../lib/registry/admin';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoDbRegistry } from '../../lib/adapters/dynamodb/registry';
import { sharedDynamoDb } from './shared-dynamodb';

export const ISSUER = 'http://127.0.0.1:3000';
export const RESOURCE = 'api://industrial-insights';
export const NOW = new Date('2026-03-01T12:00:00.000Z');

export async function authFixture() {
  const dir = await mkdtemp(path.join(tmpdir(), 'auth-keys-'));
  const key: SigningKey = await localSigningKey(dir);
  const db = await sharedDynamoDb('auth-main');
  const registry = dynamoDbRegistry(DynamoDBDocumentClient.from(db.client), db.tableName);
  await createCustomer(registry, { customerId: 'c1', now: NOW });
  await createCustomer(registry, { customerId: 'c2', now: NOW });
  await createPlant(registry, { customerId: 'c1', plantId: 'pA', now: NOW });
  await createPlant(registry, { customerId: 'c1', plantId: 'pB', now: NOW });
  await createPlant(registry, { customerId: 'c2', plantId: 'pC', now: NOW });
  const everyPlant = await createLocalClient(registry, { customerId: 'c1', now: NOW });
  const onlyA = await createLocalClient(registry, { customerId: 'c1', plantIds: ['pA'], now: NOW });
  const policy: TokenPolicy = {
    issuer: ISSUER,
    resource: RESOURCE,
    keys: createLocalJWKSet({ keys: [key.publicJwk] }),
  };
  const logs: Array<{ message: string; attributes: Record<string, unknown> }> = [];
  const deps: AuthorizerDeps = {
    registry,
    policy: async () => policy,
    now: () => NOW,
    log: (message, attributes) => logs.push({ message, attributes }),
  };
  const tokenFor = (clientId: string, overrides: { scope?: string; now?: Date; issuer?: string } = {}) =>
    signAccessToken(key, {
      issuer: overrides.issuer ?? ISSUER,
      clientId,
      scope: overrides.scope ?? `${RESOURCE}/.default`,
      now: overrides.now ?? NOW,
    });
  return {
    dir,
    key,
    registry,
    everyPlant,
    onlyA,
    policy,
    deps,
    logs,
    tokenFor,
    cleanup: async () => {
      await db.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type AuthFixture = Awaited<ReturnType<typeof authFixture>>;

export { requestEvent } from './authorizer-event';
