// QueryEngine on the embedded DuckDB file (the contract is lib/query-api/ports.ts): a pooled
// connection of the sandboxed instance (database.ts), interrupted when the service aborts, rows
// converted one at a time (cell-values.ts) into the answer, which says when it is full. Between
// DuckDB's chunks the event loop gets a turn, and a cell too large for the answer is never
// converted (cell-size.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { JsonDuckDBValueConverter, type DuckDBConnection, type DuckDBMaterializedResult } from '@duckdb/node-api';
import type { KqlType, StoredValue } from '../../query';
import type { QuerySignal } from '../../query-api/abort';
import type { QueryEngine, QuerySession, RowSink, RunOptions } from '../../query-api/ports';
import { leastRowBytes } from './cell-size';
import { cellReader } from './cell-values';
import { instanceOptions, withConnection } from './database';
import { engineError } from './engine-errors';

/**
 * Runs SQL and reads every row as JSON-friendly values. The result is materialized by the one
 * asynchronous call, so its chunks are read synchronously: a reader's per-chunk fetches cost
 * 0.1-0.3 ms more per query (same rows). For trusted SQL only (tests, benchmarks): no limits.
 */
export async function readRowsJson(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  const result = await connection.run(sql);
  const rows: unknown[][] = [];
  for (let i = 0, n = result.chunkCount; i < n; i++) {
    for (const row of result.getChunk(i).convertRows(JsonDuckDBValueConverter)) rows.push(row);
  }
  return rows;
}

/** Pushes rows into the sink until it is full; yields to the event loop between chunks. */
async function readInto(
  result: DuckDBMaterializedResult,
  types: readonly KqlType[],
  sink: RowSink,
  signal: QuerySignal,
): Promise<void> {
  for (let i = 0, n = result.chunkCount; i < n; i++) {
    if (i > 0) await nextTurn();
    if (signal.aborted) throw signal.reason;
    const chunk = result.getChunk(i);
    const vectors = Array.from({ length: chunk.columnCount }, (_, c) => chunk.getColumnVector(c));
    const cells = types.map((type, c) => cellReader(vectors[c], type));
    for (let row = 0, rows = chunk.rowCount; row < rows; row++) {
      const least = leastRowBytes(vectors, row);
      if (least.bytes > sink.remainingBytes) return void sink.oversized(least.bytes, least.column);
      if (!sink.push(cells.map((cell) => cell(row)))) return;
    }
  }
}

/** How often an abort interrupts the connection again until the statement has stopped. */
export const INTERRUPT_REPEAT_MS = 20;

/**
 * Runs the statement; an abort interrupts it, and again every INTERRUPT_REPEAT_MS until it has
 * stopped: DuckDB drops an interrupt that arrives before the statement has started (still queued
 * for a thread of libuv's pool, as on a busy machine), and the statement would then run to its end,
 * holding the connection, a thread and the query's place in admission.
 */
async function runOn(
  connection: DuckDBConnection,
  sql: string,
  signal: QuerySignal,
): Promise<DuckDBMaterializedResult> {
  if (signal.aborted) throw signal.reason;
  let again: ReturnType<typeof setInterval> | undefined;
  const interrupt = (): void => {
    connection.interrupt();
    again = setInterval(() => connection.interrupt(), INTERRUPT_REPEAT_MS);
  };
  signal.addEventListener('abort', interrupt, { once: true });
  try {
    return await connection.run(sql);
  } catch (error) {
    throw signal.aborted ? signal.reason : engineError(error, instanceOptions().memory_limit ?? 'its limit');
  } finally {
    signal.removeEventListener('abort', interrupt);
    clearInterval(again);
  }
}

const runInto: (connection: DuckDBConnection, ...args: Parameters<QueryEngine['run']>) => Promise<void> = async (
  connection,
  sql,
  types,
  sink,
  { signal },
) => {
  const result = await runOn(connection, sql, signal);
  await readInto(result, types, sink, signal);
};

/**
 * A request's session on one connection: its stored values are temporary tables, which DuckDB keeps
 * per connection, so concurrent requests (each on its own connection) never see each other's.
 */
class DuckDbSession implements QuerySession {
  readonly dialect = 'duckdb';
  private readonly stored = new Set<string>();
  /** The statement running, if any: the session ends only after it has stopped. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly connection: DuckDBConnection) {}

  run(...args: Parameters<QueryEngine['run']>): Promise<void> {
    return this.track(runInto(this.connection, ...args));
  }

  async store(value: StoredValue, { signal }: RunOptions): Promise<void> {
    if (this.stored.has(value.name)) return;
    // Dropped at the end even if this fails halfway (DROP IF EXISTS).
    this.stored.add(value.name);
    await this.track(runOn(this.connection, `CREATE TEMPORARY TABLE ${quote(value.name)} AS ${value.sql}`, signal));
  }

  /** Waits for the statement running (a caller may give up on it at its time limit before it stops). */
  async stopped(): Promise<void> {
    await this.running.catch(() => undefined);
  }

  /** Drops the stored tables, so that the connection carries none to its next request. */
  async drop(): Promise<void> {
    for (const name of this.stored) await this.connection.run(`DROP TABLE IF EXISTS temp.main.${quote(name)}`);
    this.stored.clear();
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running = work;
    return work;
  }
}

/**
 * Runs `work` in a session on the connection (QueryEngine.session): after it, success or failure,
 * once its last statement has stopped, the stored tables are dropped. A failure to drop after a
 * failed work is not reported over the work's own error (the adapter then closes the connection,
 * which drops them).
 */
export async function inDuckDbSession<T>(
  connection: DuckDBConnection,
  work: (session: QuerySession) => Promise<T>,
): Promise<T> {
  const session = new DuckDbSession(connection);
  let result: T;
  try {
    result = await work(session);
  } catch (error) {
    await session.stopped();
    await session.drop().catch(() => undefined);
    throw error;
  }
  await session.drop();
  return result;
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export function duckDbQueryEngine(file: string): QueryEngine {
  return {
    dialect: 'duckdb',
    async run(...args) {
      // A failure (an abort included) closes the connection instead of pooling it (database.ts).
      await withConnection(file, (connection) => runInto(connection, ...args));
    },
    session(work) {
      // A failure also closes the connection (database.ts).
      return withConnection(file, (connection) => inDuckDbSession(connection, work));
    },
  };
}
