// The embedded query engine on a real DuckDB file: pooled UTC sessions, a failed connection never
// reused, stopping on abort, and the synchronous chunk reader giving what DuckDB's reader gives.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import { closeTelemetryDatabase, telemetryDatabase, withConnection } from '../../lib/adapters/duckdb/database';
import { engineError } from '../../lib/adapters/duckdb/engine-errors';
import { duckDbQueryEngine, readRowsJson } from '../../lib/adapters/duckdb/query-engine';
import { AppError } from '../../lib/core/errors';
import { TableAnswer } from '../../lib/query-api/answer';
import type { QuerySession } from '../../lib/query-api/ports';

const answer = () =>
  new TableAnswer([{ name: 'n', columnType: 'long', dataType: 'Int64' }], { rowLimit: 100, maxResponseBytes: 100_000 });

describe('DuckDB query engine', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'duckdb-engine-'));
    file = path.join(dir, 'telemetry.duckdb');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reopens the database after an internal error, which DuckDB answers by invalidating the instance', async () => {
    const before = await telemetryDatabase(file);
    await withConnection(file, (c) =>
      c.run('CREATE TABLE IF NOT EXISTS kept (n INTEGER); INSERT INTO kept VALUES (7)').then(() => undefined),
    );
    await expect(
      withConnection(file, async () => Promise.reject(new Error('INTERNAL Error: an assertion of the engine failed'))),
    ).rejects.toThrow(/INTERNAL/);
    const after = await telemetryDatabase(file);
    expect(after).not.toBe(before);
    expect(await withConnection(file, (c) => readRowsJson(c, 'SELECT n FROM kept'))).toEqual([[7]]);
    await withConnection(file, (c) => c.run('DROP TABLE kept').then(() => undefined));
    // The request that met it gets a 400 naming the engine's fault, not a 500.
    expect(engineError(new Error('INTERNAL Error: an assertion of the engine failed'), '1GB')).toMatchObject({
      code: 'QUERY_ENGINE_REFUSED',
    });
  });

  it('reuses a connection whose work succeeded, in a UTC session', async () => {
    const first = await withConnection(file, async (c) => c);
    const again = await withConnection(file, async (c) => {
      expect(await readRowsJson(c, "SELECT current_setting('TimeZone')")).toEqual([['UTC']]);
      return c;
    });
    expect(again).toBe(first);
  });

  it('closes a connection whose work failed instead of pooling it', async () => {
    let failed: unknown;
    await expect(
      withConnection(file, async (c) => {
        failed = c;
        await c.run('BEGIN TRANSACTION');
        await c.run('SELECT * FROM no_such_table');
      }),
    ).rejects.toThrow(/no_such_table/);
    const next = await withConnection(file, async (c) => {
      // A reused connection would still sit in the aborted transaction.
      expect(await readRowsJson(c, 'SELECT 42')).toEqual([[42]]);
      return c;
    });
    expect(next).not.toBe(failed);
  });

  it('reads every chunk of a large result exactly as DuckDB reader does', async () => {
    const sql =
      "SELECT i, 'row-' || i AS label, TIMESTAMP '2026-01-01 00:00:00' + to_seconds(i) AS ts FROM range(5000) t(i) ORDER BY i";
    await withConnection(file, async (c) => {
      const rows = await readRowsJson(c, sql);
      expect(rows).toHaveLength(5000); // three DuckDB chunks of at most 2048 rows
      expect(rows).toEqual((await c.runAndReadAll(sql)).getRowsJson());
    });
  });

  it('interrupts a query when the service aborts it, rejects with the abort reason, and the next query still runs', async () => {
    const engine = duckDbQueryEngine(file);
    const slow = 'SELECT count(*) FROM range(100000000) a, range(1000) b WHERE a.range * b.range = -1';
    const reason = new AppError('QUERY_TIMEOUT', 'too slow');
    const signal = AbortSignal.abort(reason);
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    await expect(engine.run(slow, ['long'], answer(), { signal: controller.signal })).rejects.toBe(reason);
    await expect(engine.run('SELECT 7', ['long'], answer(), { signal })).rejects.toBe(reason); // aborted before it starts
    const next = answer();
    await engine.run('SELECT 7', ['long'], next, { signal: new AbortController().signal });
    expect(next.finish().data.rows).toEqual([[7]]);
  });

  it("keeps a session's stored values to its own connection: two sessions store one name, each reads its own", async () => {
    // Prepare
    const engine = duckDbQueryEngine(file);
    const never = new AbortController().signal;
    const read = async (session: QuerySession, n: number): Promise<readonly unknown[][]> => {
      await session.store({ name: '_kql_let_1', sql: `SELECT ${n} AS c0` }, { signal: never });
      // Stored once: a second store of the name keeps the first rows.
      await session.store({ name: '_kql_let_1', sql: 'SELECT -1 AS c0' }, { signal: never });
      const rows = answer();
      await session.run('SELECT c0 FROM "_kql_let_1"', ['long'], rows, { signal: never });
      return rows.finish().data.rows;
    };
    // Act
    const both = await Promise.all([engine.session!((s) => read(s, 1)), engine.session!((s) => read(s, 2))]);
    const left = await withConnection(file, (c) =>
      readRowsJson(c, 'SELECT count(*) FROM duckdb_tables() WHERE temporary'),
    );
    // Assess
    expect(both).toEqual([[[1]], [[2]]]);
    expect(left).toEqual([['0']]);
  });

  it('interrupts a store when the service aborts it, ends the session only once it stopped, and leaks no table', async () => {
    // Prepare
    const engine = duckDbQueryEngine(file);
    const slow = 'SELECT count(*) AS c0 FROM range(100000000) a, range(1000) b WHERE a.range * b.range = -1';
    const reason = new AppError('QUERY_TIMEOUT', 'too slow');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    let storeSettled = false;
    // Act: the work gives up at once, as the service does at its time limit, while the store still runs.
    const stopped = engine.session!(async (session) => {
      const storing = session.store({ name: '_kql_let_2', sql: slow }, { signal: controller.signal });
      storing.catch(() => (storeSettled = true));
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw reason;
    });
    // Assess
    await expect(stopped).rejects.toBe(reason);
    expect(storeSettled).toBe(true);
    const next = await engine.session!(async (session) => {
      await session.store({ name: '_kql_let_2', sql: 'SELECT 5 AS c0' }, { signal: new AbortController().signal });
      const rows = answer();
      await session.run('SELECT c0 FROM "_kql_let_2"', ['long'], rows, { signal: new AbortController().signal });
      return rows.finish().data.rows;
    });
    expect(next).toEqual([[5]]);
  });

  it("stops a query aborted while it still waits for a thread of libuv's pool (DuckDB drops an interrupt that comes before the statement starts)", async () => {
    // Prepare: a pooled connection, then every thread of libuv's pool busy for a while.
    const engine = duckDbQueryEngine(file);
    await engine.run('SELECT 1', ['long'], answer(), { signal: new AbortController().signal });
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const busy = Array.from(
      { length: threads },
      () => new Promise((resolve) => pbkdf2('p', 's', 150_000, 64, 'sha512', resolve)),
    );
    const slow = 'SELECT count(*) FROM range(100000000) a, range(1000) b WHERE a.range * b.range = -1';
    const reason = new AppError('QUERY_TIMEOUT', 'too slow');
    const controller = new AbortController();
    // Act: the abort comes while the statement waits behind the busy threads.
    const running = engine.run(slow, ['long'], answer(), { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    // Assess
    await expect(running).rejects.toBe(reason);
    await Promise.all(busy);
    const next = answer();
    await engine.run('SELECT 7', ['long'], next, { signal: new AbortController().signal });
    expect(next.finish().data.rows).toEqual([[7]]);
  });
});

describe('closing the embedded database', () => {
  /** Counts States rows from another process: DuckDB locks a file against other processes. */
  const countElsewhere = (file: string) =>
    execFileSync(
      process.execPath,
      [
        '-e',
        `
      const { DuckDBInstance } = require('@duckdb/node-api');
      DuckDBInstance.create(process.argv[1]).then(async (db) => {
        const c = await db.connect();
        console.log((await c.runAndReadAll('SELECT count(*)::INT FROM "States"')).getRowsJson()[0][0]);
      });`,
        file,
      ],
      { cwd: path.resolve(import.meta.dirname, '../..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    ).trim();

  it('releases the file to other processes, and reopens on the next use', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'duckdb-close-'));
    const file = path.join(dir, 'telemetry.duckdb');
    try {
      await withConnection(file, (c) =>
        c.run(`INSERT INTO "States" ("CustomerId", "Timestamp") VALUES ('c', TIMESTAMP '2026-01-01 00:00:00')`),
      );
      expect(() => countElsewhere(file)).toThrow(/lock/i);
      await closeTelemetryDatabase(file);
      expect(countElsewhere(file)).toBe('1');
      expect(await withConnection(file, (k) => readRowsJson(k, 'SELECT count(*)::INT FROM "States"'))).toEqual([[1]]);
      await closeTelemetryDatabase(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('closing while a connection is lent out', () => {
  it('does not pool that connection afterwards, so the file stays released', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'duckdb-lent-'));
    const file = path.join(dir, 'telemetry.duckdb');
    try {
      let lent: unknown;
      await withConnection(file, async (c) => {
        lent = c;
        await closeTelemetryDatabase(file);
      });
      const next = await withConnection(file, async (c) => c);
      expect(next).not.toBe(lent);
      await closeTelemetryDatabase(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
