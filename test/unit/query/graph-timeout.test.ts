// A runaway graph-match (a variable-length edge over a dense graph: billions of paths) stops at
// the query's time limit like any other query, and the engine runs the next query.
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

describe('graph-match at the time limit', () => {
  it('is interrupted in the middle of its joins, and the next query runs', async () => {
    // Prepare: 3,000 edges over 40 nodes, paths of exactly 8 hops (about 75^8 of them).
    const dir = await mkdtemp(path.join(tmpdir(), 'graph-timeout-'));
    const file = path.join(dir, 'telemetry.duckdb');
    const engine = duckDbQueryEngine(file);
    const answer = () =>
      new TableAnswer([{ name: 'n', columnType: 'long', dataType: 'Int64' }], {
        rowLimit: 10,
        maxResponseBytes: 100_000,
      });
    const { sql } = compile(
      'range i from 1 to 3000 step 1 | extend s = i % 40, t = (i * 7 + 3) % 40' +
        ' | make-graph s --> t with_node_id=id | graph-match cycles=all (a)-[e*8..8]->(b) project a.id | count',
      { ...GOLDEN_OPTIONS, dialect: 'duckdb' },
    );
    const reason = new AppError('QUERY_TIMEOUT', 'too slow');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 300);
    const started = Date.now();
    try {
      // Act
      const run = engine.run(sql, ['long'], answer(), { signal: controller.signal });
      // Assess
      await expect(run).rejects.toBe(reason);
      expect(Date.now() - started).toBeLessThan(15_000);
      const next = answer();
      await engine.run('SELECT 7', ['long'], next, { signal: new AbortController().signal });
      expect(next.finish().data.rows).toEqual([[7]]);
    } finally {
      await closeTelemetryDatabase(file);
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
