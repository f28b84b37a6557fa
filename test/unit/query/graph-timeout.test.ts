// A runaway graph query stops at the query's time limit like any other query, and the engine runs
// the next query: a graph-match with a variable-length edge over a dense graph (billions of paths),
// graph-mark-components over a long path (many steps of its recursive CTE) and kind=strong over a cycle.
import { describe, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS } from '../../golden/fixture-db';
import { expectInterruptedThenNextRuns } from './engine-interrupt';

/**
 * Runs `query` aborted after `abortAfter` ms (late enough to land in the part tested, past building
 * the graph): it must stop within 15 s of the abort, and the engine run the next query.
 */
async function interruptedThenNextRuns(query: string, abortAfter: number): Promise<void> {
  const { sql } = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
  await expectInterruptedThenNextRuns(sql, abortAfter, abortAfter + 15_000);
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
    // A path of 1,000,000 nodes: built in a few seconds, its components take far longer than the abort.
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
