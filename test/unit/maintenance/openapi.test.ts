// The OpenAPI document stays in step with the deployed routes and the error table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ERROR_STATUS } from '../../../lib/core/errors';
import { maintenanceOpenApi } from '../../../lib/maintenance/openapi';
import { MAINTENANCE_ROUTES } from '../../../lib/maintenance/routes';

type Fragment = Record<
  string,
  { handler: string; events?: Array<{ httpApi?: { method: string; path: string; authorizer?: { name: string } } }> }
>;
const fragment = parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../infra/functions/maintenance.yml'), 'utf8'),
) as Fragment;
const doc = maintenanceOpenApi() as {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          { content?: Record<string, { schema: { allOf?: Array<{ properties?: { code: { enum: string[] } } }> } }> }
        >;
        parameters: Array<{ name: string; in: string }>;
      }
    >
  >;
};

describe('OpenAPI document', () => {
  it('has exactly the routes of infra/functions/maintenance.yml, with the same functions and authorizers', () => {
    const deployed = Object.entries(fragment).flatMap(([name, fn]) =>
      (fn.events ?? []).map(
        (e) =>
          `${name} ${e.httpApi?.method.toLowerCase()} ${e.httpApi?.path} ${e.httpApi?.authorizer?.name ?? 'public'}`,
      ),
    );
    const routes = MAINTENANCE_ROUTES.map(
      (r) => `${r.functionName} ${r.method} ${r.path} ${r.authorized ? 'maintenanceAuthorizer' : 'public'}`,
    );
    expect(deployed.sort()).toEqual(routes.sort());
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(MAINTENANCE_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('is OpenAPI 3.1 and documents every status with its error codes', () => {
    expect(doc.openapi).toBe('3.1.0');
    const create = doc.paths['/maintenance/v1/plants/{plantId}/tasks']?.post;
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '412',
      '413',
      '415',
      '500',
    ]);
    for (const [status, response] of Object.entries(create?.responses ?? {})) {
      if (status === '200') continue;
      const codes = response.content?.['application/json']?.schema.allOf?.[1]?.properties?.code.enum ?? [];
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(Number(status));
    }
    const list = doc.paths['/maintenance/v1/plants/{plantId}/jobs-planned']?.get;
    expect(list?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:plantId',
      'query:startDate',
      'query:endDate',
      'query:assetTagNumber',
      'query:assetSerialNumber',
      'query:assetExternalReference',
      'query:page',
      'query:pageSize',
    ]);
  });
});
