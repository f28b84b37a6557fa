// The embedded engine as the query API uses it, on a real DuckDB file: sandboxed (no file,
// network or extension access; configuration locked), every error a query can cause a 4xx
// AppError of the engines' contract (lib/query-api/ports.ts), a huge cell refused without being
// converted, and the event loop given a turn between chunks.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeTelemetryDatabase, MAX_EXPRESSION_DEPTH, withConnection } from '../../lib/adapters/duckdb/database';
import { engineError } from '../../lib/adapters/duckdb/engine-errors';
import { duckDbQueryEngine, readRowsJson } from '../../lib/adapters/duckdb/query-engine';
import { AppError } from '../../lib/core/errors';
import type { KqlType } from '../../lib/query';
import { TableAnswer } from '../../lib/query-api/answer';

/** Counts the rows pushed, to show which rows were converted at all. */
class CountingAnswer extends TableAnswer {
  pushed = 0;
  override push(row: unknown[]): boolean {
    this.pushed++;
    return super.push(row);
  }
}

const column = (type: KqlType = 'string') => [{ name: 'c', columnType: type, dataType: 'String' }];
const answer = (maxResponseBytes = 1_000_000, rowLimit = 10_000) => new CountingAnswer(column(), { rowLimit, maxResponseBytes });
const running = () => ({ signal: new AbortController().signal });

describe('the sandboxed DuckDB engine', () => {
  let dir: string;
  let file: string;
  const run = (sql: string, sink = answer()) => duckDbQueryEngine(file).run(sql, ['string'], sink, running());
  const failure = (sql: string) => run(sql).then(() => undefined, (e: unknown) => e);

  beforeAll(async () => {
    // A small memory limit so that running out of memory is cheap to provoke.
    vi.stubEnv('DUCKDB_MEMORY_LIMIT', '128MB');
    vi.stubEnv('DUCKDB_THREADS', '1');
    dir = await mkdtemp(path.join(tmpdir(), 'duckdb-sandbox-'));
    file = path.join(dir, 'telemetry.duckdb');
  });
  afterAll(async () => {
    await closeTelemetryDatabase(file);
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  it('opens with external access off, the configured limits, UTC, and the configuration locked', async () => {
    const settings = await withConnection(file, (c) =>
      readRowsJson(c, "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), current_setting('TimeZone'), current_setting('memory_limit'), current_setting('threads'), current_setting('max_expression_depth')"),
    );
    expect(settings).toEqual([[false, true, 'UTC', expect.stringMatching(/^12\d\.\d MiB$/), '1', String(MAX_EXPRESSION_DEPTH)]]);
  });

  it.each([
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('/etc/passwd')",
    "COPY (SELECT 1) TO '/tmp/insights-sandbox-escape.csv'",
    "ATTACH '/tmp/insights-sandbox-escape.duckdb'",
    'INSTALL httpfs',
    'LOAD httpfs',
  ])('refuses file, network and extension access: %s', async (sql) => {
    const error = await failure(sql);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'QUERY_ENGINE_REFUSED', status: 400 });
    expect((error as AppError).message).not.toMatch(/root:/);
  });

  it.each([
    "SET memory_limit = '10GB'",
    "SET TimeZone = 'Europe/Berlin'",
    'SET enable_external_access = true',
    'SET lock_configuration = false',
    'RESET memory_limit',
    "PRAGMA memory_limit = '10GB'",
  ])('refuses to change a setting: %s', async (sql) => {
    expect(await failure(sql)).toMatchObject({ code: 'QUERY_ENGINE_REFUSED', status: 400 });
    const after = await withConnection(file, (c) => readRowsJson(c, "SELECT current_setting('TimeZone'), current_setting('enable_external_access'), current_setting('lock_configuration')"));
    expect(after).toEqual([['UTC', false, true]]);
  });

  it.each([
    ['binder', 'SELECT nope FROM range(1)', 'QUERY_ENGINE_REFUSED'],
    ['parser', 'SELEC 1', 'QUERY_ENGINE_REFUSED'],
    ['catalog', 'SELECT * FROM no_such_table', 'QUERY_ENGINE_REFUSED'],
    ['expression depth', `SELECT ${Array.from({ length: 3000 }, () => '1').join(' + ')}`, 'QUERY_ENGINE_REFUSED'],
    ['overflow', 'SELECT 9223372036854775807::BIGINT + 1', 'QUERY_DATA_ERROR'],
    ['conversion', "SELECT 'abc'::INTEGER", 'QUERY_DATA_ERROR'],
    ['out of range', 'SELECT make_timestamp(999999, 1, 1, 0, 0, 0)', 'QUERY_DATA_ERROR'],
    ['invalid input', "SELECT error('boom')", 'QUERY_DATA_ERROR'],
    ['range step 0', 'SELECT * FROM range(1, 10, 0)', 'QUERY_ENGINE_REFUSED'],
    ['out of memory', "SELECT string_agg(repeat('x', 1000), ',') FROM range(1000000) t(i)", 'QUERY_MEMORY_LIMIT'],
  ])('answers a %s error with a 400 of the contract', async (_kind, sql, code) => {
    const error = await failure(sql);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code, status: 400 });
  });

  it('answers an interrupt it did not ask for with 503 and Retry-After', async () => {
    const error = await withConnection(file, async (c) => {
      const slow = c.run('SELECT count(*) FROM range(100000000) a, range(1000) b WHERE a.range * b.range = -1');
      setTimeout(() => c.interrupt(), 50);
      return slow.then(() => undefined, (e: unknown) => e);
    }).catch((e: unknown) => e);
    const mapped = engineError(error, '128MB');
    expect(mapped).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect((mapped as AppError).data).toContainEqual({ retryAfterSeconds: 1 });
  });

  it('refuses a cell larger than the answer can hold without converting it (string or list)', async () => {
    for (const sql of ["SELECT repeat('x', 20000000) AS c", 'SELECT list(i) AS c FROM range(3000000) t(i)']) {
      const sink = answer(1_000_000);
      await duckDbQueryEngine(file).run(sql, ['dynamic'], sink, running());
      expect(sink.pushed).toBe(0);
      expect(() => sink.finish()).toThrow(expect.objectContaining({ code: 'QUERY_RESULT_TOO_LARGE' }));
    }
  });

  it('cuts before a later row too large for the answer, keeping the rows that fit', async () => {
    const sink = answer(1_000_000);
    await duckDbQueryEngine(file).run("SELECT CASE WHEN i < 3 THEN 'small' ELSE repeat('x', 5000000) END AS c FROM range(5) t(i) ORDER BY i", ['string'], sink, running());
    expect(sink.pushed).toBe(3);
    expect(sink.finish()).toMatchObject({ data: { rows: [['small'], ['small'], ['small']] }, meta: { truncated: true, truncationReason: 'responseBytes' } });
  });

  it('gives the event loop a turn between chunks, never inside the reading of one', async () => {
    let turns = 0;
    let reading = true;
    const tick = (): void => {
      turns++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: number[] = [];
    class Watching extends TableAnswer {
      override push(row: unknown[]): boolean {
        seen.push(turns);
        return super.push(row);
      }
    }
    const sink = new Watching([{ name: 'i', columnType: 'long', dataType: 'Int64' }], { rowLimit: 10_000, maxResponseBytes: 1_000_000 });
    await duckDbQueryEngine(file).run('SELECT i FROM range(5000) t(i) ORDER BY i', ['long'], sink, running());
    reading = false;
    expect(sink.finish().data.rows).toHaveLength(5000);
    expect(seen[2047]).toBe(seen[0]); // one chunk: read without a break
    expect(seen[2048]).toBeGreaterThan(seen[2047] as number); // next chunk: after a turn
  });
});
