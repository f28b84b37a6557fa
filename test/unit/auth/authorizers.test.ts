// The two authorizers' decisions on the in-memory registry (test/support/fakes): every 401/403
// branch, what reaches the context, what is logged. The same decisions on DynamoDB Local, with
// forged signatures and algorithms, are in test/integration/authorizers.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateQuery,
  authorizeMaintenance,
  authorizeQuery,
  type SimpleAuthorizerResult,
} from '../../../lib/auth/authorize';
import { callerOf } from '../../../lib/auth/caller';
import type { SigningKey } from '../../../lib/auth/local-keys';
import { AppError } from '../../../lib/core/errors';
import { errorBody } from '../../../lib/http/envelope';
import { issueMaintenanceToken, redeemTokenLink } from '../../../lib/registry/tokens';
import { fakeAuth, memorySigningKey, NOW, RESOURCE } from '../../support/fakes/auth';
import { requestEvent } from '../../support/authorizer-event';

/** What callerOf makes of an authorizer's answer: the 401/403 and envelope a handler would send. */
function refusal(result: SimpleAuthorizerResult): { status: number; body: ReturnType<typeof errorBody> } {
  try {
    callerOf({ requestContext: { authorizer: { lambda: result.context } } });
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, body: errorBody(error) };
    throw error;
  }
  throw new Error('the authorizer let the caller in');
}

/**
 * The token with its signature's first character changed: that character's six bits are all the
 * signature's, so the signature always differs (replacing the last two characters by 'xx' left it
 * the same about one run in 256, when they already encoded the same bits, and the test failed).
 */
function withAlteredSignature(token: string): string {
  const dot = token.lastIndexOf('.') + 1;
  return `${token.slice(0, dot)}${token[dot] === 'A' ? 'B' : 'A'}${token.slice(dot + 1)}`;
}

let key: SigningKey;
beforeAll(async () => {
  key = await memorySigningKey();
});

async function plantToken(
  auth: Awaited<ReturnType<typeof fakeAuth>>,
  plantId: string,
  options: { lifetimeMs?: number; issuedAt?: Date } = {},
) {
  const issuedAt = options.issuedAt ?? NOW;
  const issued = await issueMaintenanceToken(auth.registry, {
    plantId,
    now: issuedAt,
    ...(options.lifetimeMs !== undefined ? { lifetimeMs: options.lifetimeMs } : {}),
  });
  return { ...issued, accessToken: (await redeemTokenLink(auth.registry, issued.linkId, issuedAt)).accessToken };
}

describe('query authorizer on the in-memory registry', () => {
  it('gives an unrestricted client every plant of its customer, read from the registry', async () => {
    // Prepare
    const auth = await fakeAuth(key);
    // Act
    const result = await authorizeQuery(requestEvent(await auth.tokenFor(auth.everyPlant.clientId)), auth.deps);
    // Assess
    expect(result).toEqual({
      isAuthorized: true,
      context: {
        kind: 'jwt',
        customerId: 'c1',
        plantIds: 'pA,pB',
        allPlants: 'true',
        clientId: auth.everyPlant.clientId,
      },
    });
    expect(auth.registry.calls).toEqual(['getClient', 'listPlants']);
  });

  it('keeps only the plants of the customer a limited client lists', async () => {
    const auth = await fakeAuth(key);
    await auth.registry.createClient({ ...auth.onlyA, clientId: 'client-stale', plantIds: ['pA', 'pC', 'gone'] });
    const result = await authorizeQuery(requestEvent(await auth.tokenFor('client-stale')), auth.deps);
    expect(result.context).toMatchObject({ plantIds: 'pA', allPlants: 'false' });
  });

  it.each([
    ['no Authorization header', undefined, "send 'Authorization: Bearer <access token>'"],
    [
      'a token that is not a JWT',
      'mnt_not-a-jwt',
      'the access token is not a JWT; request one from the token endpoint',
    ],
  ])('answers 401 for %s, without asking the registry', async (_, token, message) => {
    const auth = await fakeAuth(key);
    const out = refusal(await authorizeQuery(requestEvent(token), auth.deps));
    expect(out).toEqual({ status: 401, body: { status: 'ERROR', code: 'UNAUTHORIZED', message, data: [] } });
    expect(auth.registry.calls).toEqual([]);
  });

  it('answers 401 for a valid token of a client the registry does not know', async () => {
    const auth = await fakeAuth(key);
    const out = refusal(await authorizeQuery(requestEvent(await auth.tokenFor('client-deleted')), auth.deps));
    expect(out).toMatchObject({ status: 401, body: { message: 'the access token belongs to no registered client' } });
    expect(auth.registry.calls).toEqual(['getClient']);
  });

  it('answers 401 for an expired token and 403 for another resource', async () => {
    const auth = await fakeAuth(key);
    const expired = await auth.tokenFor(auth.everyPlant.clientId, { now: new Date(NOW.getTime() - 2 * 3_600_000) });
    const foreign = await auth.tokenFor(auth.everyPlant.clientId, { scope: 'api://other/.default' });
    expect(refusal(await authorizeQuery(requestEvent(expired), auth.deps))).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(refusal(await authorizeQuery(requestEvent(foreign), auth.deps))).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN', message: `the access token lacks the scope ${RESOURCE}/.default` },
    });
  });

  it('denies outright a request with the serverless-offline override header, in any case', async () => {
    const auth = await fakeAuth(key);
    const token = await auth.tokenFor(auth.everyPlant.clientId);
    const result = await authorizeQuery(
      requestEvent(token, { extraHeaders: { 'SLS-Offline-Authorizer-Override': '{}' } }),
      auth.deps,
    );
    expect(result).toEqual({ isAuthorized: false });
    expect(auth.logs.map((l) => l.message)).toEqual(['authorizer override header refused']);
  });

  it('lets an unexpected registry failure through (a 500), instead of refusing the caller', async () => {
    const auth = await fakeAuth(key);
    const broken = {
      ...auth.deps,
      registry: { ...auth.registry, getClient: () => Promise.reject(new Error('DynamoDB is down')) },
    };
    await expect(authorizeQuery(requestEvent(await auth.tokenFor(auth.everyPlant.clientId)), broken)).rejects.toThrow(
      'DynamoDB is down',
    );
  });

  it('logs each decision with ids and reasons, never the token', async () => {
    const auth = await fakeAuth(key);
    const token = await auth.tokenFor(auth.everyPlant.clientId);
    await authorizeQuery(requestEvent(token), auth.deps);
    await authorizeQuery(requestEvent(`${token}x`), auth.deps);
    expect(auth.logs).toEqual([
      {
        message: 'caller authorized',
        attributes: expect.objectContaining({ kind: 'jwt', customerId: 'c1', clientId: auth.everyPlant.clientId }),
      },
      { message: 'caller refused', attributes: expect.objectContaining({ code: 'UNAUTHORIZED' }) },
    ]);
    expect(JSON.stringify(auth.logs)).not.toContain(token.split('.')[2]);
  });
});

describe('the query token checked inside the query function (authenticateQuery)', () => {
  /** Its refusal as the chain renders it, or the caller. */
  async function outcome(promise: Promise<unknown>) {
    try {
      return { caller: await promise };
    } catch (error) {
      if (error instanceof AppError) return { status: error.status, body: errorBody(error) };
      throw error;
    }
  }

  it("refuses exactly as the authorizer's refusal reaches a handler, and accepts the same caller", async () => {
    // Prepare
    const auth = await fakeAuth(key);
    const good = await auth.tokenFor(auth.onlyA.clientId);
    const cases = [
      requestEvent(undefined),
      requestEvent('not-a-jwt'),
      requestEvent(withAlteredSignature(good)),
      requestEvent(await auth.tokenFor(auth.everyPlant.clientId, { scope: 'api://other/.default' })),
      requestEvent(await auth.tokenFor('client-deleted')),
      requestEvent(await auth.tokenFor(auth.everyPlant.clientId, { now: new Date(NOW.getTime() - 2 * 3_600_000) })),
    ];
    for (const event of cases) {
      // Act
      const inFunction = await outcome(authenticateQuery(event, auth.deps));
      const viaAuthorizer = refusal(await authorizeQuery(event, auth.deps));
      // Assess
      expect(inFunction).toEqual(viaAuthorizer);
    }
    const accepted = await outcome(authenticateQuery(requestEvent(good), auth.deps));
    expect(accepted).toEqual({
      caller: { kind: 'jwt', customerId: 'c1', plantIds: ['pA'], allPlants: false, clientId: auth.onlyA.clientId },
    });
  });

  it('answers the serverless-offline override header with 403 and the envelope', async () => {
    const auth = await fakeAuth(key);
    const event = requestEvent(await auth.tokenFor(auth.everyPlant.clientId), {
      extraHeaders: { 'sls-offline-authorizer-override': '{"lambda":{"customerId":"c2"}}' },
    });
    expect(await outcome(authenticateQuery(event, auth.deps))).toMatchObject({
      status: 403,
      body: { status: 'ERROR', code: 'FORBIDDEN' },
    });
  });

  it('hands an accepted caller to `accepted` instead of a log line of its own; refusals are still logged', async () => {
    const auth = await fakeAuth(key);
    const accepted: Record<string, unknown>[] = [];
    const deps = { ...auth.deps, accepted: (a: Record<string, unknown>) => void accepted.push(a) };
    await authenticateQuery(requestEvent(await auth.tokenFor(auth.everyPlant.clientId)), deps);
    await outcome(authenticateQuery(requestEvent(undefined), deps));
    expect(accepted).toEqual([expect.objectContaining({ customerId: 'c1', clientId: auth.everyPlant.clientId })]);
    expect(auth.logs.map((l) => l.message)).toEqual(['caller refused']);
  });
});

describe('maintenance authorizer on the in-memory registry', () => {
  it('lets a plant token in on its plant as a plant-token caller', async () => {
    const auth = await fakeAuth(key);
    const { accessToken, token } = await plantToken(auth, 'pA');
    const result = await authorizeMaintenance(requestEvent(accessToken, { plantId: 'pA' }), auth.deps);
    expect(result.context).toEqual({
      kind: 'plant-token',
      customerId: 'c1',
      plantIds: 'pA',
      allPlants: 'false',
      tokenId: token.tokenId,
    });
  });

  it('answers 401 for a token it cannot find and for a forged one of a real id', async () => {
    const auth = await fakeAuth(key);
    const { accessToken } = await plantToken(auth, 'pA');
    const forged = `${accessToken.slice(0, -4)}AAAA`;
    for (const token of ['not-a-token', forged]) {
      expect(refusal(await authorizeMaintenance(requestEvent(token, { plantId: 'pA' }), auth.deps))).toMatchObject({
        status: 401,
        body: { message: 'the access token is not valid' },
      });
    }
  });

  it('answers 403 for a revoked token, an expired token and a token of another plant', async () => {
    const auth = await fakeAuth(key);
    const revoked = await plantToken(auth, 'pA');
    await auth.registry.revokeMaintenanceToken(revoked.token.tokenId, NOW.toISOString());
    const expired = await plantToken(auth, 'pA', { lifetimeMs: 60_000, issuedAt: new Date(NOW.getTime() - 60_000) });
    const valid = await plantToken(auth, 'pA');
    const decide = async (token: string, plantId: string) =>
      refusal(await authorizeMaintenance(requestEvent(token, { plantId }), auth.deps));
    expect(await decide(revoked.accessToken, 'pA')).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN', message: expect.stringContaining('revoked') },
    });
    // Expiry is inclusive: a token whose expiresAt is now is refused.
    expect(await decide(expired.accessToken, 'pA')).toMatchObject({
      status: 403,
      body: { message: expect.stringContaining('expired') },
    });
    expect(await decide(valid.accessToken, 'pB')).toMatchObject({
      status: 403,
      body: { message: 'the access token is not valid for plant "pB"' },
    });
  });

  it('reads the plant from rawPath when API Gateway gave no path parameters, and refuses a bad escape', async () => {
    const auth = await fakeAuth(key);
    const { accessToken } = await plantToken(auth, 'pA');
    const event = (rawPath: string) => ({ ...requestEvent(accessToken), rawPath, pathParameters: undefined });
    expect((await authorizeMaintenance(event('/maintenance/v1/plants/pB/tasks'), auth.deps)).context).toMatchObject({
      authError: 'FORBIDDEN',
    });
    expect((await authorizeMaintenance(event('/maintenance/v1/plants/p%41/tasks'), auth.deps)).context).toMatchObject({
      kind: 'plant-token',
      plantIds: 'pA',
    });
    expect(
      refusal(await authorizeMaintenance(event('/maintenance/v1/plants/%E0%A4%A/tasks'), auth.deps)),
    ).toMatchObject({ status: 403, body: { message: 'the plant id in the path is not a valid URL-encoded value' } });
  });

  it('lets a client JWT in on an allowed plant only, narrowed to that plant', async () => {
    const auth = await fakeAuth(key);
    const limited = await auth.tokenFor(auth.onlyA.clientId);
    const every = await auth.tokenFor(auth.everyPlant.clientId);
    expect((await authorizeMaintenance(requestEvent(every, { plantId: 'pB' }), auth.deps)).context).toMatchObject({
      kind: 'jwt',
      plantIds: 'pB',
      allPlants: 'true',
    });
    expect(refusal(await authorizeMaintenance(requestEvent(limited, { plantId: 'pB' }), auth.deps))).toMatchObject({
      status: 403,
      body: { message: `client ${auth.onlyA.clientId} is not allowed for plant "pB"` },
    });
    expect(refusal(await authorizeMaintenance(requestEvent(every, { plantId: 'pC' }), auth.deps)).status).toBe(403);
  });

  it('gives a client JWT on a route without a plant every plant it may use', async () => {
    const auth = await fakeAuth(key);
    const result = await authorizeMaintenance(requestEvent(await auth.tokenFor(auth.everyPlant.clientId)), auth.deps);
    expect(result.context).toMatchObject({ kind: 'jwt', plantIds: 'pA,pB' });
  });

  it('never caches a plant token: a revocation is seen by the next request', async () => {
    const auth = await fakeAuth(key);
    const { accessToken, token } = await plantToken(auth, 'pA');
    expect((await authorizeMaintenance(requestEvent(accessToken, { plantId: 'pA' }), auth.deps)).context).toMatchObject(
      { kind: 'plant-token' },
    );
    await auth.registry.revokeMaintenanceToken(token.tokenId, NOW.toISOString());
    expect(refusal(await authorizeMaintenance(requestEvent(accessToken, { plantId: 'pA' }), auth.deps)).status).toBe(
      403,
    );
  });
});
