// Identity end to end on the offline stack: the local token endpoint and JWKS, both Lambda
// REQUEST authorizers through serverless-offline (refusals as 401/403 with the error envelope),
// the one-time token link, and no secret or token in the stack's logs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { importJWK, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import type { Registry } from '../../lib/registry/ports';
import { seedDemo, type SeedResult } from '../../lib/registry/seed';
import type { OfflineStack } from '../support/offline-stack';
import { sharedOfflineStack } from '../support/shared-stack';

const RESOURCE = 'api://industrial-insights';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('identity on the offline stack', () => {
  let stack: OfflineStack;
  let registry: Registry;
  let close: () => void;
  let demo: SeedResult;
  let accessToken: string;
  let plantToken: string;
  const secrets: string[] = [];

  const get = (route: string, token?: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.httpUrl}${route}`, {
      headers: { ...headers, ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) },
    });

  const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${stack.httpUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  async function expectRefusal(response: Response, status: number, code: string): Promise<void> {
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({
      status: 'ERROR',
      code,
      message: expect.any(String),
      data: expect.any(Array),
    });
  }

  beforeAll(async () => {
    // The shared stack (vitest.config.ts, integration-stack): the only file on it that seeds the demo tenant.
    stack = await sharedOfflineStack();
    ({ registry, close } = openRegistry({
      endpoint: `http://127.0.0.1:${stack.ports.dynamodb}`,
      tableName: 'industrial-insights-local-main',
      region: 'eu-west-1',
    }));
    demo = await seedDemo(registry, { now: new Date() });
    // The link id is not in this list: like any URL it appears in access logs; it is one-time, so a
    // stolen link shows up as a 410 for the integrator (docs/auth.md).
    secrets.push(demo.clientSecret ?? '');
  });
  afterAll(async () => {
    close?.();
    await stack?.stop();
  });

  it('seeds the demo once', async () => {
    expect(demo.created).toBe(true);
    const again = await seedDemo(registry, { now: new Date() });
    expect(again).toMatchObject({ created: false, clientId: demo.clientId });
    expect(again.clientSecret).toBeUndefined();
  });

  it('issues an access token for the client credentials, verifiable with the published key', async () => {
    const response = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: demo.clientId,
      client_secret: demo.clientSecret ?? '',
      scope: `${RESOURCE}/.default`,
    });
    const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    accessToken = body.access_token;
    secrets.push(accessToken);
    const jwks = (await (await get('/.well-known/jwks.json')).json()) as {
      keys: Array<{ kid: string; kty: string; d?: string }>;
    };
    const kid = JSON.parse(Buffer.from(accessToken.split('.')[0] ?? '', 'base64url').toString()).kid;
    expect(jwks.keys).toEqual([expect.objectContaining({ kid, kty: 'RSA' })]);
    expect(jwks.keys[0]?.d).toBeUndefined();
  });

  it('answers RFC 6749 errors on the token endpoint', async () => {
    const wrong = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: demo.clientId,
      client_secret: 'wrong',
      scope: `${RESOURCE}/.default`,
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    const basic = Buffer.from(`${demo.clientId}:${demo.clientSecret}`).toString('base64');
    const scope = await tokenRequest(
      { grant_type: 'client_credentials', scope: 'api://other/.default' },
      { Authorization: `Basic ${basic}` },
    );
    expect(scope.status).toBe(400);
    expect(await scope.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('lets the query token in with the customer and its plants', async () => {
    const response = await get('/insights/v1/whoami', accessToken);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        kind: 'jwt',
        customerId: 'demo',
        plantIds: ['demo-plant-1', 'demo-plant-2'],
        allPlants: true,
        clientId: demo.clientId,
      },
    });
  });

  it('refuses bad query tokens with 401 or 403 and the envelope', async () => {
    const jwk = JSON.parse(await readFile(path.join(stack.dataDir, 'auth-keys', 'signing-key.json'), 'utf8'));
    const key = (await importJWK(jwk, 'RS256')) as CryptoKey;
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>, exp = now + 600) =>
      new SignJWT({
        client_id: demo.clientId,
        scope: `${RESOURCE}/.default`,
        token_use: 'access',
        iss: stack.httpUrl,
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
        .setExpirationTime(exp)
        .sign(key);
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    await expectRefusal(await get('/insights/v1/whoami'), 401, 'UNAUTHORIZED');
    await expectRefusal(await get('/insights/v1/whoami', `${b64({ alg: 'none' })}.${payload}.`), 401, 'UNAUTHORIZED');
    await expectRefusal(
      await get(
        '/insights/v1/whoami',
        `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      ),
      401,
      'UNAUTHORIZED',
    );
    await expectRefusal(await get('/insights/v1/whoami', await sign({}, now - 60)), 401, 'UNAUTHORIZED');
    await expectRefusal(
      await get('/insights/v1/whoami', await sign({ iss: 'https://elsewhere.example' })),
      401,
      'UNAUTHORIZED',
    );
    await expectRefusal(
      await get('/insights/v1/whoami', await sign({ scope: 'api://other/.default' })),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses the same bad tokens on the query and Kusto routes, which check the token in the function itself', async () => {
    const jwk = JSON.parse(await readFile(path.join(stack.dataDir, 'auth-keys', 'signing-key.json'), 'utf8'));
    const key = (await importJWK(jwk, 'RS256')) as CryptoKey;
    const foreign = await new SignJWT({
      client_id: demo.clientId,
      scope: 'api://other/.default',
      token_use: 'access',
      iss: stack.httpUrl,
    })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(key);
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const tampered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const body = JSON.stringify({
      query: 'print 1',
      startTime: '2026-01-01T00:00:00.000Z',
      endTime: '2026-01-02T00:00:00.000Z',
    });
    const post = (route: string, token?: string, headers: Record<string, string> = {}) =>
      fetch(`${stack.httpUrl}${route}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...headers,
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
        },
        body,
      });
    for (const route of ['/insights/v1/telemetry/query/table', '/insights/v1/telemetry/query/explain']) {
      await expectRefusal(await post(route), 401, 'UNAUTHORIZED');
      await expectRefusal(await post(route, `${b64({ alg: 'none' })}.${payload}.`), 401, 'UNAUTHORIZED');
      await expectRefusal(await post(route, tampered), 401, 'UNAUTHORIZED');
      await expectRefusal(await post(route, foreign), 403, 'FORBIDDEN');
      // No authorizer on these routes, so serverless-offline never reads this header; refused all the same.
      const override = JSON.stringify({ lambda: { kind: 'jwt', customerId: 'demo', plantIds: 'demo-plant-1' } });
      for (const token of [undefined, accessToken])
        await expectRefusal(
          await post(route, token, { 'sls-offline-authorizer-override': override }),
          403,
          'FORBIDDEN',
        );
      expect((await post(route, accessToken)).status, route).toBe(200);
    }
    // The Kusto protocol's query routes check the token the same way, and answer as Kusto does (OneApiErrors).
    const kusto = (route: string, token?: string, headers: Record<string, string> = {}) =>
      fetch(`${stack.httpUrl}${route}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          ...headers,
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify({ db: 'demo', csl: route.endsWith('mgmt') ? '.show version' : 'print 1' }),
      });
    const expectKustoRefusal = async (response: Response, status: number, code: string, route: string) => {
      expect(response.status, route).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code, route).toBe(code);
    };
    for (const route of ['/v2/rest/query', '/v1/rest/query', '/v1/rest/mgmt']) {
      await expectKustoRefusal(await kusto(route), 401, 'Unauthorized', route);
      await expectKustoRefusal(await kusto(route, `${b64({ alg: 'none' })}.${payload}.`), 401, 'Unauthorized', route);
      await expectKustoRefusal(await kusto(route, tampered), 401, 'Unauthorized', route);
      await expectKustoRefusal(await kusto(route, foreign), 403, 'Forbidden', route);
      const override = JSON.stringify({ lambda: { kind: 'jwt', customerId: 'demo', plantIds: 'demo-plant-1' } });
      for (const token of [undefined, accessToken])
        await expectKustoRefusal(
          await kusto(route, token, { 'sls-offline-authorizer-override': override }),
          403,
          'Forbidden',
          route,
        );
      expect((await kusto(route, accessToken)).status, route).toBe(200);
    }
  });

  it('hands the maintenance token out once through its link, then 410 with the envelope', async () => {
    const first = await get(`/maintenance/v1/token-links/${demo.tokenLinkId}`);
    const body = (await first.json()) as { accessToken: string; plantId: string };
    expect(first.status).toBe(200);
    expect(body).toMatchObject({ tokenType: 'Bearer', plantId: 'demo-plant-1' });
    plantToken = body.accessToken;
    secrets.push(plantToken);
    await expectRefusal(await get(`/maintenance/v1/token-links/${demo.tokenLinkId}`), 410, 'GONE');
  });

  it('lets the plant token in on its plant only, until revoked', async () => {
    const ok = await get('/maintenance/v1/plants/demo-plant-1/whoami', plantToken);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      data: { kind: 'plant-token', customerId: 'demo', plantIds: ['demo-plant-1'] },
    });
    await expectRefusal(await get('/maintenance/v1/plants/demo-plant-2/whoami', plantToken), 403, 'FORBIDDEN');
    await expectRefusal(await get('/maintenance/v1/plants/demo-plant-1/whoami'), 401, 'UNAUTHORIZED');
    await expectRefusal(
      await get('/maintenance/v1/plants/demo-plant-1/whoami', `${plantToken.slice(0, -3)}abc`),
      401,
      'UNAUTHORIZED',
    );
    const viaClient = await get('/maintenance/v1/plants/demo-plant-2/whoami', accessToken);
    expect(viaClient.status).toBe(200);
    const tokens = await registry.listMaintenanceTokens('demo-plant-1');
    await registry.revokeMaintenanceToken(tokens[0]?.tokenId ?? '', new Date().toISOString());
    await expectRefusal(await get('/maintenance/v1/plants/demo-plant-1/whoami', plantToken), 403, 'FORBIDDEN');
  });

  it('refuses a forged serverless-offline authorizer override', async () => {
    const response = await get('/insights/v1/whoami', undefined, {
      'sls-offline-authorizer-override': JSON.stringify({
        lambda: { kind: 'jwt', customerId: 'demo', plantIds: 'demo-plant-1' },
      }),
    });
    expect(response.status).toBe(403);
  });

  it('never writes a secret or token to the logs', () => {
    const output = stack.output();
    expect(output).toContain('caller refused');
    for (const secret of secrets.filter((s) => s !== '')) expect(output).not.toContain(secret);
    expect(output).not.toContain(accessToken.split('.')[2]);
  });
});
