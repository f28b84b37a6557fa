// The local token endpoint answers like an OAuth 2.0 server (RFC 6749): a signed RS256 access
// token for good client credentials (form or Basic), and the RFC's error bodies otherwise.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken, type TokenEndpointDeps } from '../../lib/auth/token-endpoint';
import { authFixture, ISSUER, NOW, RESOURCE, type AuthFixture } from '../support/auth-fixture';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('token endpoint', () => {
  let f: AuthFixture;
  let deps: TokenEndpointDeps;
  let clientId: string;
  let secret: string;
  beforeAll(async () => {
    f = await authFixture();
    deps = { registry: f.registry, signingKey: async () => f.key, issuer: ISSUER, resource: RESOURCE, now: () => NOW };
    clientId = f.everyPlant.client.clientId;
    secret = f.everyPlant.clientSecret;
  });
  afterAll(async () => f.cleanup());

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  it('issues an RS256 token with kid, iss, client_id, scope and a one-hour expiry', async () => {
    const out = await issueToken(
      {
        headers: FORM,
        body: form({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: secret,
          scope: `${RESOURCE}/.default`,
        }),
      },
      deps,
    );
    expect(out.status).toBe(200);
    expect(out.headers['cache-control']).toBe('no-store');
    expect(out.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const token = out.body.access_token as string;
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', kid: f.key.kid });
    const { payload } = await jwtVerify(token, createLocalJWKSet({ keys: [f.key.publicJwk] }), { currentDate: NOW });
    expect(payload).toMatchObject({
      iss: ISSUER,
      client_id: clientId,
      scope: `${RESOURCE}/.default`,
      token_use: 'access',
      exp: NOW.getTime() / 1000 + 3600,
    });
  });

  it('accepts HTTP Basic client authentication', async () => {
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64');
    const out = await issueToken(
      {
        headers: { ...FORM, authorization: `Basic ${basic}` },
        body: form({ grant_type: 'client_credentials', scope: `${RESOURCE}/.default` }),
      },
      deps,
    );
    expect(out.status).toBe(200);
  });

  it('answers invalid_client 401 for a wrong secret, an unknown client and missing credentials', async () => {
    const cases: Array<Record<string, string>> = [
      { client_id: clientId, client_secret: `${secret}x` },
      { client_id: 'nobody', client_secret: secret },
      {},
    ];
    for (const fields of cases) {
      const out = await issueToken(
        { headers: FORM, body: form({ grant_type: 'client_credentials', scope: `${RESOURCE}/.default`, ...fields }) },
        deps,
      );
      expect(out).toMatchObject({
        status: 401,
        body: { error: 'invalid_client', error_description: expect.any(String) },
      });
    }
  });

  it('answers 503 temporarily_unavailable with Retry-After, not 401, when the registry cannot be read', async () => {
    const failing: TokenEndpointDeps = {
      ...deps,
      registry: { ...f.registry, getClient: () => Promise.reject(new Error('ProvisionedThroughputExceededException')) },
    };
    const out = await issueToken(
      {
        headers: FORM,
        body: form({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
      },
      failing,
    );
    expect(out).toMatchObject({
      status: 503,
      body: { error: 'temporarily_unavailable' },
      headers: { 'retry-after': '2', 'cache-control': 'no-store' },
    });
    expect(JSON.stringify(out.body)).not.toContain('Provisioned');
  });

  it('answers invalid_scope 400 for another resource and unsupported_grant_type 400 for another grant', async () => {
    const scope = await issueToken(
      {
        headers: FORM,
        body: form({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: secret,
          scope: 'api://other/.default',
        }),
      },
      deps,
    );
    const grant = await issueToken(
      { headers: FORM, body: form({ grant_type: 'password', client_id: clientId, client_secret: secret }) },
      deps,
    );
    expect(scope).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(grant).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });

  it('answers invalid_request 400 for a JSON body', async () => {
    const out = await issueToken(
      { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials' }) },
      deps,
    );
    expect(out).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });
});
