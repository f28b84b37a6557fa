// pack_array(*) at the compile() level: the row's columns in the input's order, as the explicit
// pack_array() of the same columns gives them (lib/query/analyze-star-args.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { openFixtureDb } from '../../golden/fixture-db';
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
});
