// The engine's variables (lib/core/config.ts) and the DuckDB instance options built from them:
// defaults for the host, a bad value refused with the variable's name, the sandbox always on.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { instanceOptions, MAX_EXPRESSION_DEPTH } from '../../../lib/adapters/duckdb/database';
import { parseConfig } from '../../../lib/core/config';

const local = {
  MAIN_TABLE: 't',
  TELEMETRY_BACKEND: 'duckdb',
  DUCKDB_PATH: '/tmp/x.duckdb',
  LAKE_DIR: '/tmp/lake',
  DEAD_LETTER_DIR: '/tmp/dl',
  OAUTH_ISSUER: 'http://127.0.0.1:3000',
};

describe('engine configuration', () => {
  it('has defaults for the byte cap and the thread pool, and takes the limits as numbers', () => {
    const cfg = parseConfig(local);
    expect(cfg).toMatchObject({ QUERY_MAX_RESPONSE_BYTES: 5_000_000, UV_THREADPOOL_SIZE: 4 });
    expect(cfg.QUERY_CONCURRENCY).toBeUndefined();
    const set = parseConfig({
      ...local,
      QUERY_MAX_RESPONSE_BYTES: '1000000',
      QUERY_CONCURRENCY: '6',
      QUERY_CONCURRENCY_PER_CLIENT: '3',
      UV_THREADPOOL_SIZE: '16',
      DUCKDB_MEMORY_LIMIT: '2GB',
      DUCKDB_THREADS: '2',
    });
    expect(set).toMatchObject({
      QUERY_MAX_RESPONSE_BYTES: 1_000_000,
      QUERY_CONCURRENCY: 6,
      QUERY_CONCURRENCY_PER_CLIENT: 3,
      UV_THREADPOOL_SIZE: 16,
      DUCKDB_MEMORY_LIMIT: '2GB',
      DUCKDB_THREADS: 2,
    });
  });

  it.each([
    ['QUERY_MAX_RESPONSE_BYTES', '7000000'],
    ['QUERY_MAX_RESPONSE_BYTES', '100'],
    ['DUCKDB_MEMORY_LIMIT', 'lots'],
    ['DUCKDB_THREADS', '0'],
    ['QUERY_CONCURRENCY', '0'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => parseConfig({ ...local, [name]: value })).toThrow(name);
  });

  it('opens DuckDB sandboxed, with a memory limit and threads for the host', () => {
    const options = instanceOptions();
    expect(options).toMatchObject({
      enable_external_access: 'false',
      autoload_known_extensions: 'false',
      autoinstall_known_extensions: 'false',
      max_expression_depth: String(MAX_EXPRESSION_DEPTH),
      threads: String(availableParallelism()),
    });
    const mb = Number(/^(\d+)MB$/.exec(options.memory_limit ?? '')?.[1]);
    expect(mb).toBeGreaterThanOrEqual(256);
    expect(mb).toBeLessThanOrEqual(4096);
  });
});
