// The embedded engine as the query API uses it, on a real DuckDB file: sandboxed (no file,
// network or extension access; configuration locked), a huge cell refused without being
// converted, and the event loop given a turn between chunks. Its error contract is tested in
// duckdb-engine-contract.test.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeTelemetryDatabase, MAX_EXPRESSION_DEPTH, withConnection } from '../../lib/adapters/duckdb/database';
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
const answer = (maxResponseBytes = 1_000_000, rowLimit = 10_000) =>
  new CountingAnswer(column(), { rowLimit, maxResponseBytes });
const running = () => ({ signal: new AbortController().signal });

describe('the sandboxed DuckDB engine', () => {
  let dir: string;
  let file: string;
  const run = (sql: string, sink = answer()) => duckDbQueryEngine(file).run(sql, ['string'], sink, running());
  const failure = (sql: string) =>
    run(sql).then(
      () => undefined,
      (e: unknown) => e,
    );

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
      readRowsJson(
        c,
        "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), current_setting('TimeZone'), current_setting('memory_limit'), current_setting('threads'), current_setting('max_expression_depth')",
      ),
    );
    expect(settings).toEqual([
      [false, true, 'UTC', expect.stringMatching(/^12\d\.\d MiB$/), '1', String(MAX_EXPRESSION_DEPTH)],
    ]);
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
    const after = await withConnection(file, (c) =>
      readRowsJson(
        c,
        "SELECT current_setting('TimeZone'), current_setting('enable_external_access'), current_setting('lock_configuration')",
      ),
    );
    expect(after).toEqual([['UTC', false, true]]);
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
    await duckDbQueryEngine(file).run(
      "SELECT CASE WHEN i < 3 THEN 'small' ELSE repeat('x', 5000000) END AS c FROM range(5) t(i) ORDER BY i",
      ['string'],
      sink,
      running(),
    );
    expect(sink.pushed).toBe(3);
    expect(sink.finish()).toMatchObject({
      data: { rows: [['small'], ['small'], ['small']] },
      meta: { truncated: true, truncationReason: 'responseBytes' },
    });
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
    const sink = new Watching([{ name: 'i', columnType: 'long', dataType: 'Int64' }], {
      rowLimit: 10_000,
      maxResponseBytes: 1_000_000,
    });
    await duckDbQueryEngine(file).run('SELECT i FROM range(5000) t(i) ORDER BY i', ['long'], sink, running());
    reading = false;
    expect(sink.finish().data.rows).toHaveLength(5000);
    expect(seen[2047]).toBe(seen[0]); // one chunk: read without a break
    expect(seen[2048]).toBeGreaterThan(seen[2047] as number); // next chunk: after a turn
  });
});
