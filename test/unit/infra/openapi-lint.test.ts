// The served OpenAPI document passes Redocly's `recommended` rules (errors fail; warnings are
// printed by `redocly lint` but allowed), and names the address it was asked on as its server.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintenanceOpenApi, maintenanceOpenApiFor, serverUrlOf } from '../../../lib/maintenance/openapi';

const root = path.resolve(import.meta.dirname, '../../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'openapi-lint-'));
  await writeFile(path.join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `redocly lint` with the recommended rules, offline (no telemetry, no update check). */
async function lint(document: unknown): Promise<{ status: number | null; errors: string[] }> {
  const file = path.join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(document, null, 2));
  const run = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/@redocly/cli/bin/cli.js'),
      'lint',
      '--config',
      path.join(dir, 'redocly.yaml'),
      '--format',
      'json',
      file,
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
    problems: Array<{ ruleId: string; severity: string; message: string }>;
  };
  return {
    status: run.status,
    errors: report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`),
  };
}

describe('OpenAPI document lint (Redocly recommended)', () => {
  it('has no error, with the server it is served from', async () => {
    expect(
      await lint(
        maintenanceOpenApiFor(
          serverUrlOf({ host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-proto': 'https' }),
        ),
      ),
    ).toEqual({ status: 0, errors: [] });
  }, 60_000);

  it('fails a document without servers (the lint can fail)', async () => {
    const result = await lint(maintenanceOpenApi());
    expect(result.status).not.toBe(0);
    expect(result.errors).toEqual(['no-empty-servers: Servers must be present.']);
  }, 60_000);
});

describe('server address', () => {
  it('is https on API Gateway and http on the local stack, with the port', () => {
    expect(serverUrlOf({ host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-proto': 'https' })).toBe(
      'https://abc123.execute-api.eu-west-1.amazonaws.com',
    );
    expect(serverUrlOf({ Host: '127.0.0.1:3100' })).toBe('http://127.0.0.1:3100');
    expect((maintenanceOpenApiFor('http://127.0.0.1:3100') as { servers: unknown }).servers).toEqual([
      { url: 'http://127.0.0.1:3100' },
    ]);
  });

  it('leaves out a missing or forged host rather than serving it', () => {
    expect(serverUrlOf({})).toBeUndefined();
    expect(serverUrlOf(undefined)).toBeUndefined();
    expect(serverUrlOf({ host: 'evil.example/"><script>' })).toBeUndefined();
    expect(serverUrlOf({ host: 'api.example.com', 'x-forwarded-proto': 'javascript' })).toBeUndefined();
  });
});
