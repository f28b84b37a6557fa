// Which operators keep a serialized row set (serialize operator page, "Serialization behavior of
// operators"): window functions after them read the rows in order, after the others they are a 400
// at the call. lookup and mv-apply keep it; their SQL (a join, an expansion) keeps no row order, so
// these tests feed rows whose arrival order is not the sorted one and read the order back.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { compileFailure } from './compile-failure';
import { rowsOf } from './duckdb-rows';

const duckdb = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };
const timestream = { ...GOLDEN_OPTIONS, dialect: 'timestream' as const };

/** Five rows in neither t's order nor its reverse. */
const FACTS = 'datatable(k:string, t:long)["b",3, "a",1, "c",2, "a",5, "b",4]';
const DIMENSION = 'datatable(k:string, v:long)["a",10, "b",20]';
/** Three rows with arrays, not in k's order. */
const ARRAYS = 'datatable(k:string, a:dynamic)["b",dynamic([3,1,2]), "a",dynamic([9,8]), "c",dynamic([5])]';

describe('serialization through lookup and mv-apply (serialize page: neither drops it)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('gives lookup rows in the sorted order, which prev() reads', async () => {
    // Act
    const rows = await rowsOf(db, `${FACTS} | sort by t asc | lookup (${DIMENSION}) on k | extend p = prev(t)`);
    // Assess
    expect(rows).toEqual([
      ['a', 1, 10, null],
      ['c', 2, null, 1],
      ['b', 3, 20, 2],
      ['b', 4, 20, 3],
      ['a', 5, 10, 4],
    ]);
  });

  it('keeps a left row with several matches of an inner lookup in its place of the order', async () => {
    // Act
    const rows = await rowsOf(
      db,
      `${FACTS} | sort by t desc | lookup kind=inner (datatable(k:string, v:long)["a",10, "b",20, "b",30]) on k ` +
        '| extend n = row_number() | project t, n',
    );
    // Assess
    expect(rows).toEqual([
      [5, 1],
      [4, 2],
      [4, 3],
      [3, 4],
      [3, 5],
      [1, 6],
    ]);
  });

  it('gives mv-apply rows input row by input row, each in its array order', async () => {
    // Act
    const rows = await rowsOf(
      db,
      `${ARRAYS} | sort by k asc | mv-apply x = a to typeof(long) on (where x > 1) | project k, x, n = row_number(), p = prev(x)`,
    );
    // Assess
    expect(rows).toEqual([
      ['a', 9, 1, null],
      ['a', 8, 2, 9],
      ['b', 3, 3, 8],
      ['b', 2, 4, 3],
      ['c', 5, 5, 2],
    ]);
  });

  it('keeps the order a sort inside mv-apply sets, and the input order after a summarize inside', async () => {
    // Act
    const sorted = await rowsOf(
      db,
      `${ARRAYS} | sort by k desc | mv-apply x = a to typeof(long) on (top 2 by x asc) | project k, x, p = prev(x)`,
    );
    const summed = await rowsOf(
      db,
      `${ARRAYS} | sort by k desc | mv-apply x = a to typeof(long) on (summarize s = sum(x)) | project k, s, p = prev(s)`,
    );
    // Assess
    expect(sorted).toEqual([
      ['c', 5, null],
      ['b', 1, 5],
      ['b', 2, 1],
      ['a', 8, 2],
      ['a', 9, 8],
    ]);
    expect(summed).toEqual([
      ['c', 5, null],
      ['b', 6, 5],
      ['a', 17, 6],
    ]);
  });

  it('compiles the lookup for Timestream with the rows numbered before the join and ordered by it after', () => {
    // Act
    const { sql } = compile(
      `States | sort by Timestamp asc | lookup (${DIMENSION.replace('k:string', 'Name:string')}) on Name | extend p = prev(Timestamp)`,
      timestream,
    );
    // Assess
    expect(sql).toMatch(/row_number\(\) OVER \(ORDER BY "Timestamp" ASC NULLS FIRST\)\) AS "(_c\d+)"/);
    expect(sql).toMatch(/lag\("_c\d+", 1\) OVER \(ORDER BY "_c\d+" ASC NULLS FIRST\)/);
    expect(sql).toMatch(/ LEFT JOIN /);
  });
});

describe('the serialize page, operator by operator', () => {
  it.each([
    ['join', `${FACTS} | sort by t asc | join kind=leftouter (${DIMENSION}) on k | extend p = prev(t)`],
    ['union', `${FACTS} | sort by t asc | union (${FACTS}) | extend p = prev(t)`],
    ['mv-expand', `${FACTS} | sort by t asc | extend d = pack_array(t) | mv-expand d | extend p = prev(t)`],
    ['sample', `${FACTS} | sort by t asc | sample 3 | extend p = prev(t)`],
    ['distinct', `${FACTS} | sort by t asc | distinct t | extend p = prev(t)`],
    ['count', `${FACTS} | sort by t asc | count | extend p = prev(Count)`],
    ['summarize', `${FACTS} | sort by t asc | summarize by t | extend p = prev(t)`],
  ])('drops it after %s: a window function is a 400 at the call', (_, query) => {
    // Act
    const error = compileFailure(query, duckdb);
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(new RegExp(`^1:${query.indexOf('prev(') + 1}: prev\\(\\) needs serialized input`));
  });

  it.each([
    ['lookup', `${FACTS} | sort by t asc | lookup (${DIMENSION}) on k`],
    ['mv-apply', `${FACTS} | sort by t asc | mv-apply e = pack_array(t) on (take 1)`],
    ['parse-where', `${FACTS} | sort by t asc | parse-where k with x:string`],
    ['parse-kv', `${FACTS} | sort by t asc | parse-kv k as (a:string) with (pair_delimiter=";", kv_delimiter="=")`],
    ['project-keep', `${FACTS} | sort by t asc | project-keep t`],
    ['project-reorder', `${FACTS} | sort by t asc | project-reorder t`],
    ['take', `${FACTS} | sort by t asc | take 3`],
  ])('keeps it through %s', (_, query) => {
    // Act
    const { columns } = compile(`${query} | extend p = prev(t)`, duckdb);
    // Assess
    expect(columns.at(-1)).toEqual({ name: 'p', type: 'long' });
  });
});
