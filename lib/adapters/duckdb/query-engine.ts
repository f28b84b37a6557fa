// QueryEngine on the embedded DuckDB file (the contract is lib/query-api/ports.ts): a pooled
// connection of the sandboxed instance (database.ts), interrupted when the service aborts, rows
// converted one at a time (cell-values.ts) into the answer, which says when it is full. Between
// DuckDB's chunks the event loop gets a turn, and a cell too large for the answer is never
// converted (cell-size.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { JsonDuckDBValueConverter, type DuckDBConnection, type DuckDBMaterializedResult } from '@duckdb/node-api';
import type { KqlType } from '../../query';
import type { QueryEngine, RowSink } from '../../query-api/ports';
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
  signal: AbortSignal,
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
  signal: AbortSignal,
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

export function duckDbQueryEngine(file: string): QueryEngine {
  return {
    dialect: 'duckdb',
    async run(sql, types, sink, { signal }) {
      // A failure (an abort included) closes the connection instead of pooling it (database.ts).
      await withConnection(file, async (connection) => {
        const result = await runOn(connection, sql, signal);
        await readInto(result, types, sink, signal);
      });
    },
  };
}
