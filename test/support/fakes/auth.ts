// The authorizers' dependencies without any engine: the in-memory registry with customer c1
// (plants pA, pB) and c2 (plant pC), a client of c1 for every plant and one limited to pA, an RSA
// key made in memory, and the decision log. The same tenant as test/support/auth-fixture.ts,
// which runs the authorizers on DynamoDB Local.
import { calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair } from 'jose';
import { signAccessToken, type TokenPolicy } from '../../../lib/auth/access-token';
import type { AuthorizerDeps } from '../../../lib/auth/authorize';
import type { SigningKey } from '../../../lib/auth/local-keys';
import type { QueryClient } from '../../../lib/registry/model';
import { fakeRegistry, type FakeRegistry } from './registry';

export const ISSUER = 'http://127.0.0.1:3000';
export const RESOURCE = 'api://industrial-insights';
export const NOW = new Date('2026-03-01T12:00:00.000Z');

/** An RS256 key like the local identity provider's, never written to disk. */
export async function memorySigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
}

export interface FakeAuth {
  readonly registry: FakeRegistry;
  readonly key: SigningKey;
  readonly everyPlant: QueryClient;
  readonly onlyA: QueryClient;
  readonly deps: AuthorizerDeps;
  readonly logs: Array<{ message: string; attributes: Record<string, unknown> }>;
  tokenFor(clientId: string, overrides?: { scope?: string; now?: Date; issuer?: string }): Promise<string>;
}

const client = (clientId: string, plantIds: readonly string[] | null): QueryClient => ({
  clientId,
  customerId: 'c1',
  name: clientId,
  plantIds,
  idp: 'local',
  createdAt: NOW.toISOString(),
});

/** `key` can be shared between tests: making a 2048-bit key takes tens of milliseconds. */
export async function fakeAuth(key?: SigningKey): Promise<FakeAuth> {
  const signing = key ?? (await memorySigningKey());
  const registry = fakeRegistry();
  const created = NOW.toISOString();
  await registry.createCustomer({ customerId: 'c1', name: 'c1', createdAt: created });
  await registry.createCustomer({ customerId: 'c2', name: 'c2', createdAt: created });
  for (const [customerId, plantId] of [
    ['c1', 'pA'],
    ['c1', 'pB'],
    ['c2', 'pC'],
  ] as const)
    await registry.createPlant({ customerId, plantId, name: plantId, createdAt: created });
  const everyPlant = client('client-every-plant', null);
  const onlyA = client('client-only-a', ['pA']);
  await registry.createClient(everyPlant);
  await registry.createClient(onlyA);
  const policy: TokenPolicy = {
    issuer: ISSUER,
    resource: RESOURCE,
    keys: createLocalJWKSet({ keys: [signing.publicJwk] }),
  };
  const logs: FakeAuth['logs'] = [];
  const deps: AuthorizerDeps = {
    registry,
    policy: async () => policy,
    now: () => NOW,
    log: (message, attributes) => logs.push({ message, attributes }),
  };
  registry.calls.length = 0;
  return {
    registry,
    key: signing,
    everyPlant,
    onlyA,
    deps,
    logs,
    tokenFor: (clientId, overrides = {}) =>
      signAccessToken(signing, {
        issuer: overrides.issuer ?? ISSUER,
        clientId,
        scope: overrides.scope ?? `${RESOURCE}/.default`,
        now: overrides.now ?? NOW,
      }),
  };
}
