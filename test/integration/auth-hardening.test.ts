// Issue 12, identity part, on DynamoDB Local: the token endpoint costs one scrypt and answers the
// same for an unknown client and a wrong secret; its form fields and body are bounded; the
// authorizers refuse over-long tokens, claims and headers with a 401 decision, never a throw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeMaintenance, authorizeQuery } from '../../lib/auth/authorize';
import { callerOf } from '../../lib/auth/caller';
import { issueToken, type TokenEndpointDeps } from '../../lib/auth/token-endpoint';
import { AppError } from '../../lib/core/errors';
import { DUMMY_CLIENT_SECRET_HASH, verifyClientSecret } from '../../lib/registry/secrets';
import { authFixture, ISSUER, NOW, requestEvent, RESOURCE, type AuthFixture } from '../support/auth-fixture';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) =>
  new URLSearchParams({ grant_type: 'client_credentials', scope: `${RESOURCE}/.default`, ...fields }).toString();

describe('token endpoint: same cost, same answer, bounded input', () => {
  let f: AuthFixture;
  let verified: string[];
  let deps: TokenEndpointDeps;
  beforeAll(async () => {
    f = await authFixture();
    deps = {
      registry: f.registry,
      signingKey: async () => f.key,
      issuer: ISSUER,
      resource: RESOURCE,
      now: () => NOW,
      verifySecret: (secret, stored) => {
        verified.push(stored);
        return verifyClientSecret(secret, stored);
      },
    };
  });
  afterAll(async () => f.cleanup());

  it('answers an unknown client id exactly as a wrong secret, running scrypt in both cases', async () => {
    verified = [];
    const wrongSecret = await issueToken(
      {
        headers: FORM,
        body: form({ client_id: f.everyPlant.client.clientId, client_secret: `${f.everyPlant.clientSecret}x` }),
      },
      deps,
    );
    const unknownClient = await issueToken(
      {
        headers: FORM,
        body: form({ client_id: 'nosuchclient0000000000000a', client_secret: f.everyPlant.clientSecret }),
      },
      deps,
    );
    expect(wrongSecret.status).toBe(401);
    expect(unknownClient).toEqual(wrongSecret);
    expect(verified).toEqual([f.everyPlant.client.secretHash, DUMMY_CLIENT_SECRET_HASH]);
  });

  it('runs scrypt for a registered client without a secret (a Cognito client) too', async () => {
    verified = [];
    await f.registry.createClient({
      clientId: 'cognitoclient0000000000000',
      customerId: 'c1',
      name: 'a Cognito client',
      plantIds: null,
      idp: 'cognito',
      createdAt: NOW.toISOString(),
    });
    const out = await issueToken(
      { headers: FORM, body: form({ client_id: 'cognitoclient0000000000000', client_secret: 'anything' }) },
      deps,
    );
    expect(out).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: 'client authentication failed' },
    });
    expect(verified).toEqual([DUMMY_CLIENT_SECRET_HASH]);
  });

  it.each([
    ['a body over 4096 bytes', form({ client_id: 'a', client_secret: 'b', pad: 'x'.repeat(5000) }), 413],
    ['a 3,000-character client_id', form({ client_id: 'c'.repeat(3000), client_secret: 'b' }), 400],
    ['a client_id with other characters', form({ client_id: 'a b', client_secret: 'b' }), 400],
    ['a 300-character secret', form({ client_id: 'abc', client_secret: 's'.repeat(300) }), 400],
    ['a 2,000-character scope', form({ client_id: 'abc', client_secret: 'b', scope: 's'.repeat(2000) }), 400],
  ])('refuses %s as invalid_request, before any lookup or hashing', async (_what, body, status) => {
    verified = [];
    const out = await issueToken({ headers: FORM, body }, deps);
    expect(out).toMatchObject({ status, body: { error: 'invalid_request', error_description: expect.any(String) } });
    expect(verified).toEqual([]);
  });
});

describe('authorizers: bounded tokens, claims and headers', () => {
  let f: AuthFixture;
  beforeAll(async () => {
    f = await authFixture();
  });
  afterAll(async () => f.cleanup());

  /** The authorizer's decision as the handler turns it into a response. */
  async function refusalOf(
    decision: Promise<{ isAuthorized: boolean; context?: Readonly<Record<string, string>> }>,
  ): Promise<AppError> {
    const result = await decision;
    expect(result.isAuthorized).toBe(true);
    try {
      callerOf({ requestContext: { authorizer: { lambda: result.context ?? null } } });
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  }

  it('refuses a genuine token whose client_id has 3,000 characters with 401 (the token is over the length bound)', async () => {
    const token = await f.tokenFor('c'.repeat(3000));
    expect(await refusalOf(authorizeQuery(requestEvent(token), f.deps))).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    });
    expect(await refusalOf(authorizeMaintenance(requestEvent(token, { plantId: 'pA' }), f.deps))).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    });
  });

  it('refuses a genuine token within the length bound whose client_id is over 128 characters with 401', async () => {
    const token = await f.tokenFor('c'.repeat(1000));
    expect(token.length).toBeLessThan(8192);
    const error = await refusalOf(authorizeQuery(requestEvent(token), f.deps));
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(error.message).toMatch(/no valid client/);
    expect(await refusalOf(authorizeMaintenance(requestEvent(token, { plantId: 'pA' }), f.deps))).toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('refuses a token over 8192 characters and an over-long Authorization header with 401', async () => {
    const long = `${'a'.repeat(4500)}.${'b'.repeat(4500)}.c`;
    expect(await refusalOf(authorizeQuery(requestEvent(long), f.deps))).toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/longer than 8192/),
    });
    const header = {
      headers: { Authorization: `Bearer ${'x'.repeat(20_000)}` },
      rawPath: '/insights/v1/whoami',
      routeKey: 'GET /insights/v1/whoami',
    };
    expect(await refusalOf(authorizeQuery(header, f.deps))).toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/Authorization header is longer/),
    });
    expect(await refusalOf(authorizeMaintenance(header, f.deps))).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a path whose plant id does not decode with 403, not a throw', async () => {
    const token = await f.tokenFor(f.everyPlant.client.clientId);
    const event = {
      headers: { Authorization: `Bearer ${token}` },
      rawPath: '/maintenance/v1/plants/%E0%A4%A/tasks',
      routeKey: 'GET /maintenance/v1/plants/{plantId}/tasks',
    };
    expect(await refusalOf(authorizeMaintenance(event, f.deps))).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  it('still accepts a normal token (the bounds refuse nothing genuine)', async () => {
    const token = await f.tokenFor(f.everyPlant.client.clientId);
    const result = await authorizeQuery(requestEvent(token), f.deps);
    expect(result.context).toMatchObject({ kind: 'jwt', customerId: 'c1', clientId: f.everyPlant.client.clientId });
  });
});
