// The authorizers' verified-token cache: one RS256 check per token while it is valid, never past
// the token's exp or the cache's bounds, never for a refused token, and no change to the checks
// after it (the registry's client and plants).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyAccessToken, type TokenPolicy } from '../../../lib/auth/access-token';
import { authorizeQuery } from '../../../lib/auth/authorize';
import type { SigningKey } from '../../../lib/auth/local-keys';
import { cachingVerifier } from '../../../lib/auth/verified-token-cache';
import type { Registry } from '../../../lib/registry/ports';
import { requestEvent } from '../../support/authorizer-event';
import { fakeAuth, memorySigningKey, NOW } from '../../support/fakes/auth';

let key: SigningKey;
beforeAll(async () => {
  key = await memorySigningKey();
});

const at = (ms: number): Date => new Date(NOW.getTime() + ms);
const HOUR = 3_600_000;

async function setup(options = { maxEntries: 10, maxAgeMs: 2 * HOUR }) {
  const auth = await fakeAuth(key);
  const policy: TokenPolicy = await auth.deps.policy();
  const spy = vi.fn(verifyAccessToken);
  const verify = cachingVerifier(spy, options);
  return { auth, policy, spy, verify };
}

describe('cachingVerifier', () => {
  it('verifies a token once and answers its claims from memory afterwards', async () => {
    const { auth, policy, spy, verify } = await setup();
    const token = await auth.tokenFor(auth.everyPlant.clientId);

    const first = await verify(token, policy, NOW);
    const second = await verify(token, policy, at(60_000));

    expect(spy).toHaveBeenCalledTimes(1);
    expect(second).toBe(first);
    expect(first.clientId).toBe(auth.everyPlant.clientId);
    expect(first.expiresAt).toBe(NOW.getTime() / 1000 + 3600);
  });

  it('keys on the full token: another token, even of the same client, is verified afresh', async () => {
    const { auth, policy, spy, verify } = await setup();
    const one = await auth.tokenFor(auth.everyPlant.clientId);
    const other = await auth.tokenFor(auth.everyPlant.clientId);
    const third = await auth.tokenFor(auth.onlyA.clientId);

    await verify(one, policy, NOW);
    await verify(other, policy, NOW);
    const claims = await verify(third, policy, NOW);

    expect(spy).toHaveBeenCalledTimes(3);
    expect(verify.size()).toBe(3);
    expect(claims.clientId).toBe(auth.onlyA.clientId);
  });

  it('refuses a token past its exp although it was verified before', async () => {
    const { auth, policy, spy, verify } = await setup();
    const token = await auth.tokenFor(auth.everyPlant.clientId);
    await verify(token, policy, NOW);

    // jose accepts 5 s of clock skew past exp; the cache never answers past exp itself.
    await expect(verify(token, policy, at(HOUR + 6_000))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringContaining('expired'),
    });
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('verifies again after maxAgeMs, however long the token lives', async () => {
    const { auth, policy, spy, verify } = await setup({ maxEntries: 10, maxAgeMs: 1000 });
    const token = await auth.tokenFor(auth.everyPlant.clientId);

    await verify(token, policy, NOW);
    await verify(token, policy, at(999));
    await verify(token, policy, at(1000));

    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('keeps at most maxEntries tokens, dropping the oldest', async () => {
    const { auth, policy, spy, verify } = await setup({ maxEntries: 2, maxAgeMs: HOUR });
    const tokens = await Promise.all([1, 2, 3].map(() => auth.tokenFor(auth.everyPlant.clientId)));

    for (const token of tokens) await verify(token, policy, NOW);
    expect(verify.size()).toBe(2);
    await verify(tokens[2]!, policy, NOW); // still kept
    await verify(tokens[0]!, policy, NOW); // dropped: verified again

    expect(spy).toHaveBeenCalledTimes(4);
    expect(verify.size()).toBe(2);
  });

  it('never keeps a refusal: a bad token is checked, and refused, every time', async () => {
    const { auth, policy, spy, verify } = await setup();
    const token = await auth.tokenFor(auth.everyPlant.clientId);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const tampered = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;

    await expect(verify(tampered, policy, NOW)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(verify(tampered, policy, NOW)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    expect(spy).toHaveBeenCalledTimes(2);
    expect(verify.size()).toBe(0);
  });

  it('verifies afresh under another token policy (issuer, resource or keys)', async () => {
    const { auth, policy, spy, verify } = await setup();
    const token = await auth.tokenFor(auth.everyPlant.clientId);
    await verify(token, policy, NOW);

    await expect(verify(token, { ...policy, issuer: 'https://elsewhere.example' }, NOW)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('refuses impossible bounds', () => {
    expect(() => cachingVerifier(verifyAccessToken, { maxEntries: 0, maxAgeMs: 1 })).toThrow(RangeError);
  });
});

describe('the query authorizer with the cache', () => {
  it('authorizes a repeated token with one verification, and still asks the registry each time', async () => {
    const { auth, spy, verify } = await setup();
    const token = await auth.tokenFor(auth.onlyA.clientId);
    const event = requestEvent(token);
    const deps = { ...auth.deps, verify };

    const first = await authorizeQuery(event, deps);
    const second = await authorizeQuery(event, deps);

    expect(spy).toHaveBeenCalledTimes(1);
    expect(second).toEqual(first);
    expect(first.context).toMatchObject({ customerId: 'c1', plantIds: 'pA', clientId: auth.onlyA.clientId });

    // A client removed after its token was verified is refused although the token is still cached.
    const gone: Registry = Object.assign(Object.create(auth.registry) as Registry, {
      getClient: async () => undefined,
    });
    const refused = await authorizeQuery(event, { ...deps, registry: gone });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(refused.context).toMatchObject({ authError: 'UNAUTHORIZED' });
  });
});
