// A runaway query on the service's own DuckDB engine (a fresh file), aborted as the service aborts
// at the query's time limit: shared by the tests of queries whose SQL recurses or joins for minutes
// (scan, graph-match, graph-mark-components).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { closeTelemetryDatabase } from '../../../lib/adapters/duckdb/database';
import { duckDbQueryEngine } from '../../../lib/adapters/duckdb/query-engine';
import { AppError } from '../../../lib/core/errors';
import { TableAnswer } from '../../../lib/query-api/answer';

/**
 * Runs `sql` (one long column) aborted after `abortAfter` ms: it must be rejected with the abort's
 * reason within `maxElapsedMs` of its start, and the engine must then run the next query.
 */
export async function expectInterruptedThenNextRuns(
  sql: string,
  abortAfter: number,
  maxElapsedMs: number,
): Promise<void> {
  // Prepare
  const dir = await mkdtemp(path.join(tmpdir(), 'engine-interrupt-'));
  const file = path.join(dir, 'telemetry.duckdb');
  const engine = duckDbQueryEngine(file);
  const answer = () =>
    new TableAnswer([{ name: 'n', columnType: 'long', dataType: 'Int64' }], {
      rowLimit: 10,
      maxResponseBytes: 100_000,
    });
  const reason = new AppError('QUERY_TIMEOUT', 'too slow');
  const controller = new AbortController();
  setTimeout(() => controller.abort(reason), abortAfter);
  const started = Date.now();
  try {
    // Act
    const run = engine.run(sql, ['long'], answer(), { signal: controller.signal });
    // Assess
    await expect(run).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(maxElapsedMs);
    const next = answer();
    await engine.run('SELECT 7', ['long'], next, { signal: new AbortController().signal });
    expect(next.finish().data.rows).toEqual([[7]]);
  } finally {
    await closeTelemetryDatabase(file);
    await rm(dir, { recursive: true, force: true });
  }
}
