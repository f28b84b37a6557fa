// materialize() at the compile() level: one CTE however many times the let is read on DuckDB, and on
// Timestream (no such guarantee) the let's text at each use when it is deterministic, else a
// positioned refusal. The results are in the conformance corpus (op-engine-materialize-*,
// op-probe-materialize-sample-once).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { baseOptions, compileFailure } from './compile-failure';
import { rowsOf } from './duckdb-rows';
import { openFixtureDb, runSql } from '../../golden/fixture-db';

const twice = (body: string): string => `let m = materialize(${body});\nunion (m | count), (m | count)`;

describe('materialize()', () => {
  it('is written once on DuckDB as a materialized CTE that both uses read', () => {
    // Act
    const { sql } = compile(twice('range x from 1 to 10 step 1 | sample 3'), { ...baseOptions, dialect: 'duckdb' });
    // Assess
    expect(sql.match(/AS MATERIALIZED/g)).toHaveLength(1);
    expect(sql.match(/random\(\)/g)).toHaveLength(1);
  });

  it('writes a deterministic let at each use on Timestream', () => {
    // Act
    const { sql } = compile(twice('States | where Name == "temperature"'), { ...baseOptions, dialect: 'timestream' });
    // Assess
    expect(sql).not.toContain('MATERIALIZED');
    expect(sql.match(/'temperature'/g)).toHaveLength(2);
  });

  it.each([
    ['sample', 'States | sample 3'],
    ['rand()', 'States | extend r = rand()'],
  ])('is refused on Timestream when it picks at random (%s), with a position', (_, body) => {
    // Act
    const error = compileFailure(twice(body), { ...baseOptions, dialect: 'timestream' });
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(
      /^\d+:\d+: materialize\(\) of random rows or values is not supported on the timestream engine$/,
    );
  });

  describe('row order', () => {
    let db: DuckDBConnection;
    beforeAll(async () => {
      db = await openFixtureDb();
    });
    const scan =
      'datatable(id:long, b:bool)[3, true, 1, true, 2, false, 5, false, 4, true] | sort by id asc\n' +
      '| scan with_match_id=m declare (c:long) with (step s1: b == true; step s2: b == false => c = s1.id;)';
    // The scan's ids in their order (by id), numbered 1..5 by row_number().
    const numberedInOrder = [1, 2, 3, 4, 5].map((id) => [id, id]);

    it("keeps a two-step scan's order through the CTE: take and row_number() read it (tabdiff T4)", async () => {
      // Act: the scan's rows are a UNION ALL of each step's matches, ordered only outside it.
      const taken = await rowsOf(db, `let R = materialize(${scan}); R | take 3 | project id`);
      const numbered = await rowsOf(db, `let R = materialize(${scan}); R | extend rn = row_number() | project id, rn`);
      // Assess: as without materialize (ids 2, 5, 1 and 2, 5, 1, 3, 4 numbered 1..5 before)
      expect(taken).toEqual([[1], [2], [3]]);
      expect(numbered).toEqual(numberedInOrder);
    });

    it("keeps a two-step scan's order through a value a batch stores once (each result table reads it)", async () => {
      // Prepare
      const query = `let R = materialize(${scan});\nR | take 3 | project id;\nR | extend rn = row_number() | project id, rn`;
      const tables = [0, 1].map((resultTable) =>
        compile(query, { ...baseOptions, dialect: 'duckdb', storeShared: true, resultTable }),
      );
      const value = tables[0]!.stored![0]!;
      await db.run(`CREATE OR REPLACE TEMP TABLE "${value.name}" AS ${value.sql}`);
      // Act
      const [taken, numbered] = await Promise.all(
        tables.map(async (t) =>
          convertRows(
            await runSql(db, t.sql),
            t.columns.map((c) => c.type),
          ),
        ),
      );
      // Assess
      expect(tables[1]!.stored![0]!.sql).toBe(value.sql);
      expect(taken).toEqual([[1], [2], [3]]);
      expect(numbered).toEqual(numberedInOrder);
    });

    it('orders each use of a sorted let, also a use that reads it twice', async () => {
      // Act
      const rows = await rowsOf(
        db,
        'let R = materialize(datatable(x:long)[3, 1, 2] | sort by x desc); R | join kind=inner (R | project x, y = x * 10) on x | project x, y',
      );
      // Assess
      expect(rows).toEqual([
        [3, 30],
        [2, 20],
        [1, 10],
      ]);
    });
  });
});
