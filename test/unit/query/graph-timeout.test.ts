// A runaway graph query stops at the query's time limit like any other query, and the engine runs
// the next query: a graph-match with a variable-length edge over a dense graph (billions of paths),
// graph-mark-components over a long path (one step of its recursive CTE per node).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeTelemetryDatabase } from '../../../lib/adapters/duckdb/database';
import { duckDbQueryEngine } from '../../../lib/adapters/duckdb/query-engine';
import { AppError } from '../../../lib/core/errors';
import { compile } from '../../../lib/query/index';
import { TableAnswer } from '../../../lib/query-api/answer';
import { GOLDEN_OPTIONS } from '../../golden/fixture-db';

/**
 * Runs `query` (one long column) on a fresh engine aborted after `abortAfter` ms (late enough to
 * land in the part tested, past building the graph): it must stop soon after, and the engine run
 * the next query.
 */
async function interruptedThenNextRuns(query: string, abortAfter: number): Promise<void> {
  // Prepare
  const dir = await mkdtemp(path.join(tmpdir(), 'graph-timeout-'));
  const file = path.join(dir, 'telemetry.duckdb');
  const engine = duckDbQueryEngine(file);
  const answer = () =>
    new TableAnswer([{ name: 'n', columnType: 'long', dataType: 'Int64' }], {
      rowLimit: 10,
      maxResponseBytes: 100_000,
    });
  const { sql } = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
  const reason = new AppError('QUERY_TIMEOUT', 'too slow');
  const controller = new AbortController();
  setTimeout(() => controller.abort(reason), abortAfter);
  const started = Date.now();
  try {
    // Act
    const run = engine.run(sql, ['long'], answer(), { signal: controller.signal });
    // Assess
    await expect(run).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(abortAfter + 15_000);
    const next = answer();
    await engine.run('SELECT 7', ['long'], next, { signal: new AbortController().signal });
    expect(next.finish().data.rows).toEqual([[7]]);
  } finally {
    await closeTelemetryDatabase(file);
    await rm(dir, { recursive: true, force: true });
  }
}

describe('graph queries at the time limit', () => {
  it('interrupts graph-match in the middle of its joins', async () => {
    // 3,000 edges over 40 nodes, paths of exactly 8 hops (about 75^8 of them).
    await interruptedThenNextRuns(
      'range i from 1 to 3000 step 1 | extend s = i % 40, t = (i * 7 + 3) % 40' +
        ' | make-graph s --> t with_node_id=id | graph-match cycles=all (a)-[e*8..8]->(b) project a.id | count',
      300,
    );
  }, 60_000);

  it('interrupts graph-mark-components between the steps of its label propagation', async () => {
    // A path of 1,000,000 nodes: built in a few seconds, its components take minutes.
    await interruptedThenNextRuns(
      'range i from 1 to 1000000 step 1 | extend s = i, t = i + 1' +
        ' | make-graph s --> t with_node_id=id | graph-mark-components | graph-to-table nodes | count',
      5_000,
    );
  }, 60_000);

  it('interrupts graph-mark-components kind=strong while it finds the reachable pairs', async () => {
    // A cycle of 20,000 nodes: 400 million reachable pairs.
    await interruptedThenNextRuns(
      'range i from 1 to 20000 step 1 | extend s = i, t = i % 20000 + 1' +
        ' | make-graph s --> t with_node_id=id | graph-mark-components kind=strong | graph-to-table nodes | count',
      2_000,
    );
  }, 60_000);
});
