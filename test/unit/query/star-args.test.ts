// pack_array(*) at the compile() level: the row's columns in the input's order, as the explicit
// pack_array() of the same columns gives them (lib/query/analyze-star-args.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { rowsOf } from './duckdb-rows';

describe('pack_array(*)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  const run = (query: string): Promise<unknown[][]> => rowsOf(db, query);

  it("packs the input's columns in their order, in extend and in project (the functions library's pairwise_dist_fl)", async () => {
    // Act
    const extended = await run(
      "datatable (a:long, b:string) [1, 'x', 2, 'y'] | extend p = pack_array(*) | order by a asc",
    );
    const projected = await run("datatable (a:long, b:string) [1, 'x'] | project c = 3, p = pack_array(*)");
    // Assess
    expect(extended).toEqual([
      [1, 'x', [1, 'x']],
      [2, 'y', [2, 'y']],
    ]);
    expect(projected).toEqual([[3, [1, 'x']]]);
  });

  it('packs the columns an earlier operator made, nested in another call', async () => {
    // Act
    const rows = await run(
      'print a = 1 | extend b = a + 1 | project n = array_length(pack_array(*)), s = tostring(pack_array(*))',
    );
    // Assess
    expect(rows).toEqual([[2, '[1,2]']]);
  });

  it("packs the input's columns of each position Kusto accepts it in: where, sort, summarize, mv-apply and partition sub-queries", async () => {
    // Act
    const where = await run('print a = 1, b = 2 | where array_length(pack_array(*)) == 2 | project a');
    const sorted = await run(
      'range x from 1 to 3 step 1 | extend y = 4 - x | sort by tolong(pack_array(*)[1]) asc | project x',
    );
    const summarized = await run(
      'range x from 1 to 3 step 1 | summarize l = make_list(pack_array(*)) by b = x % 2 | sort by b asc',
    );
    const applied = await run(
      'print a = 1, b = 2 | mv-apply c = pack_array(10, 20) on (extend d = pack_array(*)) | project d',
    );
    const partitioned = await run(
      'range x from 1 to 2 step 1 | partition by x (extend d = pack_array(*)) | order by x asc | project d',
    );
    // Assess
    expect(where).toEqual([[1]]);
    expect(sorted).toEqual([[3], [2], [1]]);
    expect(summarized).toEqual([
      [0, [[2]]],
      [1, [[1], [3]]],
    ]);
    expect(applied).toEqual([[[1, 2, 10]], [[1, 2, 20]]]);
    expect(partitioned).toEqual([[[1]], [[2]]]);
  });

  it('packs no column where the row has none: print pack_array(*) is an empty array (Kusto.Language types it dynamic)', async () => {
    // Act
    const compiled = compile('print pack_array(*)', { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
    const rows = await run('print a = 1, p = pack_array(*)');
    // Assess: print's items do not see each other, so a print has no input column to pack.
    expect(compiled.columns).toEqual([{ name: 'print_0', type: 'dynamic' }]);
    expect(rows).toEqual([[1, []]]);
  });

  it('still refuses a star among other arguments, as Kusto.Language does', () => {
    // Act + Assess
    expect(() =>
      compile('print a = 1 | where pack_array(*, 1)[0] == 1', { ...GOLDEN_OPTIONS, dialect: 'duckdb' }),
    ).toThrow(/'\*' is only allowed/);
  });
});
