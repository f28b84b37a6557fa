// The checks across variables of lib/core/config.ts: each refuses a combination that would fail
// later (at the first message or request), naming the variable to change.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../lib/core/config';

const local = {
  MAIN_TABLE: 't',
  TELEMETRY_BACKEND: 'duckdb',
  DUCKDB_PATH: '/tmp/x.duckdb',
  LAKE_DIR: '/tmp/lake',
  DEAD_LETTER_DIR: '/tmp/dl',
  OAUTH_ISSUER: 'http://127.0.0.1:3000',
};
/** A deployed stage as serverless.yml renders it: local-only parameters empty. */
const deployed = {
  MAIN_TABLE: 't',
  TELEMETRY_BACKEND: 'timestream',
  TIMESTREAM_DATABASE: 'db',
  DUCKDB_PATH: '',
  LAKE_DIR: '',
  DEAD_LETTER_DIR: '',
  OAUTH_ISSUER: '',
  FIREHOSE_STREAM: 'lake',
  DEAD_LETTER_BUCKET: 'dl',
  COGNITO_USER_POOL_ID: 'eu-west-1_abc',
};

describe('configuration checks across variables', () => {
  it('accept the local stack and a deployed stage', () => {
    expect(parseConfig(local)).toMatchObject({ LAKE_DIR: '/tmp/lake', DEAD_LETTER_DIR: '/tmp/dl' });
    expect(parseConfig(deployed)).toMatchObject({
      FIREHOSE_STREAM: 'lake',
      DEAD_LETTER_BUCKET: 'dl',
      COGNITO_USER_POOL_ID: 'eu-west-1_abc',
    });
  });

  it.each([
    [
      'no data lake',
      { ...local, LAKE_DIR: '' },
      'LAKE_DIR: set exactly one of LAKE_DIR (local) and FIREHOSE_STREAM (deployed)',
    ],
    [
      'a local and a deployed data lake',
      { ...local, FIREHOSE_STREAM: 'lake' },
      'LAKE_DIR: set exactly one of LAKE_DIR (local) and FIREHOSE_STREAM (deployed)',
    ],
    [
      'no dead letter',
      { ...deployed, DEAD_LETTER_BUCKET: '' },
      'DEAD_LETTER_DIR: set exactly one of DEAD_LETTER_DIR (local) and DEAD_LETTER_BUCKET (deployed)',
    ],
    [
      'a local and a deployed dead letter',
      { ...local, DEAD_LETTER_BUCKET: 'dl' },
      'DEAD_LETTER_DIR: set exactly one of DEAD_LETTER_DIR (local) and DEAD_LETTER_BUCKET (deployed)',
    ],
    [
      'no token issuer',
      { ...deployed, COGNITO_USER_POOL_ID: '' },
      "OAUTH_ISSUER: set OAUTH_ISSUER or COGNITO_USER_POOL_ID (the issuer is then the user pool's)",
    ],
    [
      'queries taking the whole thread pool',
      { ...local, UV_THREADPOOL_SIZE: '4', QUERY_CONCURRENCY: '4' },
      'QUERY_CONCURRENCY: QUERY_CONCURRENCY (4) must be below UV_THREADPOOL_SIZE (4)',
    ],
    [
      'more per client than in all',
      { ...local, UV_THREADPOOL_SIZE: '16', QUERY_CONCURRENCY: '6', QUERY_CONCURRENCY_PER_CLIENT: '7' },
      'QUERY_CONCURRENCY_PER_CLIENT: QUERY_CONCURRENCY_PER_CLIENT (7) must not exceed QUERY_CONCURRENCY (6)',
    ],
    [
      'more per client than the default concurrency',
      { ...local, UV_THREADPOOL_SIZE: '8', QUERY_CONCURRENCY_PER_CLIENT: '5' },
      'QUERY_CONCURRENCY_PER_CLIENT: QUERY_CONCURRENCY_PER_CLIENT (5) must not exceed QUERY_CONCURRENCY (4)',
    ],
  ])('refuse %s, naming the variable', (_case, env, message) => {
    expect(() => parseConfig(env)).toThrow(`invalid configuration: ${message}`);
  });

  it('take the issuer from either variable, and a pool of one thread as it is', () => {
    expect(() => parseConfig({ ...deployed, OAUTH_ISSUER: 'https://issuer.example' })).not.toThrow();
    expect(() => parseConfig({ ...local, OAUTH_ISSUER: '', COGNITO_USER_POOL_ID: 'eu-west-1_abc' })).not.toThrow();
    // With one thread there is no pool to share: one query at a time is allowed.
    expect(parseConfig({ ...local, UV_THREADPOOL_SIZE: '1' }).UV_THREADPOOL_SIZE).toBe(1);
    expect(() => parseConfig({ ...local, UV_THREADPOOL_SIZE: '2', QUERY_CONCURRENCY: '2' })).toThrow(
      'QUERY_CONCURRENCY (2) must be below UV_THREADPOOL_SIZE (2)',
    );
  });

  it('report every problem at once', () => {
    expect(() => parseConfig({ ...local, LAKE_DIR: '', DEAD_LETTER_DIR: '', OAUTH_ISSUER: '' })).toThrow(
      /LAKE_DIR: .+; DEAD_LETTER_DIR: .+; OAUTH_ISSUER: /,
    );
  });
});

describe('the environment read at module load', () => {
  const stub = (env: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  };
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('stops the cold start of a function whose environment is bad, naming the variable', async () => {
    stub({ ...local, LAKE_DIR: '', AWS_LAMBDA_FUNCTION_NAME: 'industrial-insights-local-ingest' });
    vi.resetModules();
    await expect(import('../../../lib/core/config')).rejects.toThrow(
      'invalid configuration: LAKE_DIR: set exactly one of LAKE_DIR',
    );
  });

  it('lets another process (CLI, tests) load the module and fails only when it asks for config()', async () => {
    stub({ ...local, LAKE_DIR: '', AWS_LAMBDA_FUNCTION_NAME: undefined });
    vi.resetModules();
    const loaded = await import('../../../lib/core/config');
    expect(() => loaded.config()).toThrow('invalid configuration: LAKE_DIR: set exactly one of LAKE_DIR');
  });

  it('serves a good environment as parsed at load, later changes not seen', async () => {
    stub({ ...local, AWS_LAMBDA_FUNCTION_NAME: 'industrial-insights-local-ingest' });
    vi.resetModules();
    const loaded = await import('../../../lib/core/config');
    vi.stubEnv('MAIN_TABLE', 'other');
    expect(loaded.config().MAIN_TABLE).toBe('t');
    expect(loaded.config()).toBe(loaded.config());
  });
});
