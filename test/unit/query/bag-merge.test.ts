// make_bag, make_bag_if and bag_merge merge bags with keys in order of first appearance and the
// earliest bag's value winning (lib/query/catalog/arrays.ts, firstWinsMerge), by sorting entries
// rather than folding bag by bag (the fold re-read the merged bag at every row).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const run = async (db: DuckDBConnection, query: string): Promise<unknown[][]> =>
  runSql(db, compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' }).sql);

describe('merging bags, the first value winning', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('make_bag keeps the first value of each key, keys in order of first appearance, skipping what is not a bag', async () => {
    // Act
    const rows = await run(
      db,
      'datatable(i:long, b:dynamic)[1, dynamic({"b": 1, "a": 1}), 2, dynamic([1]), 3, dynamic({"c": 2, "a": 2}), 4, dynamic(null), 5, dynamic({"b": 3, "d": {"x": 1}})] | order by i asc | summarize m = make_bag(b) | project t = tostring(m)',
    );
    // Assess
    expect(rows).toEqual([['{"b":1,"a":1,"c":2,"d":{"x":1}}']]);
  });

  it('make_bag_if merges only the rows whose predicate holds, and gives an empty bag for none', async () => {
    // Act
    const rows = await run(
      db,
      'datatable(g:long, b:dynamic, p:bool)[1, dynamic({"a": 1}), false, 1, dynamic({"a": 2, "b": 2}), true, 2, dynamic({"c": 3}), false] | summarize m = make_bag_if(b, p) by g | order by g asc | project g, t = tostring(m)',
    );
    // Assess
    expect(rows).toEqual([
      ['1', '{"a":2,"b":2}'],
      ['2', '{}'],
    ]);
  });

  it('bag_merge takes three bags with a repeated key and a non-bag argument', async () => {
    // Act
    const rows = await run(
      db,
      'print t = tostring(bag_merge(dynamic({"a": 1, "z": 0}), dynamic("x"), dynamic({"b": 2, "a": 9}), dynamic({"c": [1, 2], "b": 7})))',
    );
    // Assess
    expect(rows).toEqual([['{"a":1,"z":0,"b":2,"c":[1,2]}']]);
  });
  it('make_bag and make_bag_if keep only the first maxSize keys (it was read and ignored)', async () => {
    // Act
    const rows = await run(
      db,
      'datatable(i:long, b:dynamic)[1, dynamic({"b": 1, "a": 1}), 2, dynamic({"c": 2, "a": 2}), 3, dynamic({"d": 3})] | order by i asc | summarize m = make_bag(b, 3), n = make_bag_if(b, i > 1, 1) | project m = tostring(m), n = tostring(n)',
    );
    // Assess
    expect(rows).toEqual([['{"b":1,"a":1,"c":2}', '{"c":2}']]);
  });
});
