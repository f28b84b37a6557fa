// Both authorizers refuse every bad credential with the right code, which callerOf turns into
// 401/403 with the error envelope; good credentials give the customer and plants in the context.
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeMaintenance, authorizeQuery, type SimpleAuthorizerResult } from '../../lib/auth/authorize';
import { callerOf } from '../../lib/auth/caller';
import { AppError } from '../../lib/core/errors';
import { errorBody } from '../../lib/http/envelope';
import { issueMaintenanceToken, redeemTokenLink } from '../../lib/registry/tokens';
import { authFixture, ISSUER, NOW, requestEvent, RESOURCE, type AuthFixture } from '../support/auth-fixture';

function refusal(result: SimpleAuthorizerResult): { status: number; body: unknown } {
  try {
    callerOf({ requestContext: { authorizer: { lambda: result.context } } });
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, body: errorBody(error) };
    throw error;
  }
  throw new Error('the authorizer let the caller in');
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('query authorizer', () => {
  let f: AuthFixture;
  beforeAll(async () => {
    f = await authFixture();
  });
  afterAll(async () => f.cleanup());

  it('gives a valid token of an unrestricted client every plant of its customer', async () => {
    const result = await authorizeQuery(requestEvent(await f.tokenFor(f.everyPlant.client.clientId)), f.deps);
    const caller = callerOf({ requestContext: { authorizer: { lambda: result.context } } });
    expect(result.isAuthorized).toBe(true);
    expect(caller).toEqual({
      kind: 'jwt',
      customerId: 'c1',
      plantIds: ['pA', 'pB'],
      allPlants: true,
      clientId: f.everyPlant.client.clientId,
    });
  });

  it('gives a client limited to plants only those plants, reading a lower-case header too', async () => {
    const result = await authorizeQuery(
      requestEvent(await f.tokenFor(f.onlyA.client.clientId), { headerName: 'authorization' }),
      f.deps,
    );
    expect(result.context).toMatchObject({ customerId: 'c1', plantIds: 'pA', allPlants: 'false' });
  });

  it('refuses a request without a token with 401 and the envelope', async () => {
    const out = refusal(await authorizeQuery(requestEvent(undefined), f.deps));
    expect(out.status).toBe(401);
    expect(out.body).toMatchObject({ status: 'ERROR', code: 'UNAUTHORIZED', data: [] });
  });

  it('refuses alg none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: ISSUER, client_id: f.everyPlant.client.clientId, scope: `${RESOURCE}/.default`, token_use: 'access', exp: NOW.getTime() / 1000 + 600 })}.`;
    expect(refusal(await authorizeQuery(requestEvent(token), f.deps)).status).toBe(401);
  });

  it('refuses an HS256 token signed with the public key', async () => {
    const pem = createPublicKey({ key: f.key.publicJwk as JsonWebKey, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    });
    const secret = new TextEncoder().encode(String(pem));
    const token = await new SignJWT({
      client_id: f.everyPlant.client.clientId,
      scope: `${RESOURCE}/.default`,
      token_use: 'access',
    })
      .setProtectedHeader({ alg: 'HS256', kid: f.key.kid })
      .setIssuer(ISSUER)
      .setExpirationTime(Math.floor(NOW.getTime() / 1000) + 600)
      .sign(secret);
    const out = refusal(await authorizeQuery(requestEvent(token), f.deps));
    expect(out).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', message: 'the access token must be signed with RS256' },
    });
  });

  it('refuses an expired token', async () => {
    const token = await f.tokenFor(f.everyPlant.client.clientId, { now: new Date(NOW.getTime() - 2 * 3600_000) });
    expect(refusal(await authorizeQuery(requestEvent(token), f.deps))).toMatchObject({
      status: 401,
      body: { message: 'the access token has expired; request a new one' },
    });
  });

  it('refuses a token of another issuer', async () => {
    const token = await f.tokenFor(f.everyPlant.client.clientId, { issuer: 'https://evil.example' });
    expect(refusal(await authorizeQuery(requestEvent(token), f.deps))).toMatchObject({
      status: 401,
      body: { message: 'the access token was not issued by this service' },
    });
  });

  it('refuses a token for another resource with 403', async () => {
    const token = await f.tokenFor(f.everyPlant.client.clientId, { scope: 'api://other/.default' });
    expect(refusal(await authorizeQuery(requestEvent(token), f.deps))).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
  });

  it('refuses a tampered signature and a tampered payload', async () => {
    const token = await f.tokenFor(f.everyPlant.client.clientId);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${header}.${payload}.${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const otherPayload = `${header}.${b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), client_id: f.onlyA.client.clientId })}.${signature}`;
    expect(refusal(await authorizeQuery(requestEvent(flipped), f.deps)).status).toBe(401);
    expect(refusal(await authorizeQuery(requestEvent(otherPayload), f.deps)).status).toBe(401);
  });

  it('refuses a valid token of a client that is not registered', async () => {
    const token = await f.tokenFor('unknownclient0000000000000');
    expect(refusal(await authorizeQuery(requestEvent(token), f.deps)).status).toBe(401);
  });

  it('refuses a maintenance token on the query API', async () => {
    const issued = await issueMaintenanceToken(f.registry, { plantId: 'pA', now: NOW });
    const { accessToken } = await redeemTokenLink(f.registry, issued.linkId, NOW);
    expect(refusal(await authorizeQuery(requestEvent(accessToken), f.deps)).status).toBe(401);
  });

  it('denies outright a request carrying the serverless-offline override header', async () => {
    const result = await authorizeQuery(
      requestEvent(await f.tokenFor(f.everyPlant.client.clientId), {
        extraHeaders: { 'sls-offline-authorizer-override': '{"lambda":{"customerId":"c2"}}' },
      }),
      f.deps,
    );
    expect(result).toEqual({ isAuthorized: false });
  });

  it('never logs the token', async () => {
    const token = await f.tokenFor(f.everyPlant.client.clientId);
    await authorizeQuery(requestEvent(token), f.deps);
    await authorizeQuery(requestEvent(`${token}x`), f.deps);
    expect(JSON.stringify(f.logs)).not.toContain(token.split('.')[2]);
  });
});

describe('maintenance authorizer', () => {
  let f: AuthFixture;
  let tokenA: string;
  beforeAll(async () => {
    f = await authFixture();
    const issued = await issueMaintenanceToken(f.registry, { plantId: 'pA', now: NOW });
    tokenA = (await redeemTokenLink(f.registry, issued.linkId, NOW)).accessToken;
  });
  afterAll(async () => f.cleanup());

  it('lets a plant token in on its plant', async () => {
    const result = await authorizeMaintenance(requestEvent(tokenA, { plantId: 'pA' }), f.deps);
    const caller = callerOf({ requestContext: { authorizer: { lambda: result.context } } }, { plantId: 'pA' });
    expect(caller).toMatchObject({ kind: 'plant-token', customerId: 'c1', plantIds: ['pA'], allPlants: false });
    expect(caller.tokenId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('answers 401 for a missing or unknown token', async () => {
    expect(refusal(await authorizeMaintenance(requestEvent(undefined, { plantId: 'pA' }), f.deps)).status).toBe(401);
    expect(refusal(await authorizeMaintenance(requestEvent('not-a-token', { plantId: 'pA' }), f.deps)).status).toBe(
      401,
    );
    const forged = `${tokenA.slice(0, -4)}AAAA`;
    expect(refusal(await authorizeMaintenance(requestEvent(forged, { plantId: 'pA' }), f.deps)).status).toBe(401);
  });

  it('answers 403 for a plant-A token on plant B', async () => {
    const out = refusal(await authorizeMaintenance(requestEvent(tokenA, { plantId: 'pB' }), f.deps));
    expect(out).toMatchObject({
      status: 403,
      body: { status: 'ERROR', code: 'FORBIDDEN', message: 'the access token is not valid for plant "pB"' },
    });
  });

  it('answers 403 for a revoked and for an expired token', async () => {
    const revoked = await issueMaintenanceToken(f.registry, { plantId: 'pA', now: NOW });
    const revokedToken = (await redeemTokenLink(f.registry, revoked.linkId, NOW)).accessToken;
    await f.registry.revokeMaintenanceToken(revoked.token.tokenId, NOW.toISOString());
    const expired = await issueMaintenanceToken(f.registry, {
      plantId: 'pA',
      lifetimeMs: 60_000,
      now: new Date(NOW.getTime() - 120_000),
    });
    const expiredToken = (await redeemTokenLink(f.registry, expired.linkId, new Date(NOW.getTime() - 110_000)))
      .accessToken;
    expect(refusal(await authorizeMaintenance(requestEvent(revokedToken, { plantId: 'pA' }), f.deps))).toMatchObject({
      status: 403,
      body: { message: expect.stringContaining('revoked') },
    });
    expect(refusal(await authorizeMaintenance(requestEvent(expiredToken, { plantId: 'pA' }), f.deps))).toMatchObject({
      status: 403,
      body: { message: expect.stringContaining('expired') },
    });
  });

  it('accepts a client-credentials JWT of a client allowed for the plant, and refuses the others with 403', async () => {
    const limited = await f.tokenFor(f.onlyA.client.clientId);
    const every = await f.tokenFor(f.everyPlant.client.clientId);
    const ok = await authorizeMaintenance(requestEvent(limited, { plantId: 'pA' }), f.deps);
    expect(ok.context).toMatchObject({
      kind: 'jwt',
      customerId: 'c1',
      plantIds: 'pA',
      clientId: f.onlyA.client.clientId,
    });
    expect(refusal(await authorizeMaintenance(requestEvent(limited, { plantId: 'pB' }), f.deps)).status).toBe(403);
    expect(refusal(await authorizeMaintenance(requestEvent(every, { plantId: 'pC' }), f.deps)).status).toBe(403);
    expect(refusal(await authorizeMaintenance(requestEvent(every, { plantId: 'no-such-plant' }), f.deps)).status).toBe(
      403,
    );
  });
});

describe('callerOf', () => {
  it('refuses a plant outside the caller plants with 403', () => {
    const event = {
      requestContext: {
        authorizer: { lambda: { kind: 'jwt', customerId: 'c1', plantIds: 'pA,pB', allPlants: 'false', clientId: 'x' } },
      },
    };
    expect(callerOf(event, { plantId: 'pB' }).plantIds).toEqual(['pA', 'pB']);
    expect(() => callerOf(event, { plantId: 'pC' })).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', status: 403 }),
    );
  });

  it('fails loudly (500) on a route without an authorizer', () => {
    expect(() => callerOf({ requestContext: {} })).toThrow(/no Lambda authorizer/);
  });
});
