// Every HTTP route says who checks its caller, and its handler agrees: a route behind a Lambda
// authorizer is wrapped with `authorized: true` (the chain reads the authorizer's decision), a
// route without one either checks the token itself (`authenticate:`) or is one of the public
// routes. So removing an authorizer from serverless.yml without a check in the function, or a
// check from a function whose route has no authorizer, fails here (docs/auth.md).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../../..');

/** Routes anyone may call: the identity provider, health, the page and the public documents. */
const PUBLIC = new Set([
  'GET /.well-known/jwks.json',
  'GET /health',
  'GET /insights/v1/telemetry/playground',
  'GET /insights/v1/telemetry/playground/{file+}',
  'GET /maintenance/v1/openapi.json',
  'GET /maintenance/v1/token-links/{id}',
  'GET /v1/rest/auth/metadata',
  'POST /oauth2/token',
]);

interface Route {
  readonly key: string;
  readonly authorizer: string | undefined;
  readonly source: string;
}

interface FunctionEntry {
  readonly handler: string;
  readonly events?: ReadonlyArray<{
    readonly httpApi?: { method: string; path: string; authorizer?: { name: string } };
  }>;
}

function routes(): Route[] {
  const dir = path.join(root, 'infra/functions');
  const found: Route[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yml'))) {
    const functions = parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, FunctionEntry>;
    for (const fn of Object.values(functions)) {
      const source = readFileSync(path.join(root, `${fn.handler.replace(/\.handler$/, '')}.ts`), 'utf8');
      for (const event of fn.events ?? []) {
        if (!event.httpApi) continue;
        const { method, path: route, authorizer } = event.httpApi;
        found.push({ key: `${method} ${route}`, authorizer: authorizer?.name, source });
      }
    }
  }
  return found;
}

describe('who checks the caller of each route', () => {
  const all = routes();

  it('finds the routes (the query routes among them)', () => {
    expect(all.map((r) => r.key)).toEqual(
      expect.arrayContaining([
        'POST /insights/v1/telemetry/query/table',
        'POST /insights/v1/telemetry/query/explain',
        'POST /v2/rest/query',
      ]),
    );
  });

  it('wraps every route behind an authorizer with `authorized: true`, and no other with it', () => {
    for (const r of all) expect(/authorized: true/.test(r.source), r.key).toBe(r.authorizer !== undefined);
  });

  it('has every route without an authorizer either public or checking the token in its function', () => {
    const selfChecking = all.filter((r) => r.authorizer === undefined && !PUBLIC.has(r.key));
    for (const r of selfChecking) expect(r.source, r.key).toMatch(/authenticate: \w+/);
    for (const r of all.filter((r) => PUBLIC.has(r.key))) expect(r.source, r.key).not.toMatch(/authenticate:/);
    expect(selfChecking.map((r) => r.key).sort()).toEqual([
      'POST /insights/v1/telemetry/query/explain',
      'POST /insights/v1/telemetry/query/table',
      'POST /v1/rest/mgmt',
      'POST /v1/rest/query',
      'POST /v2/rest/query',
    ]);
  });
});
