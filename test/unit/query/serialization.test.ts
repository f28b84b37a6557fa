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

describe('window functions after every operator, each row in the order the page gives', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  const EVENTS =
    'datatable(t:datetime, k:string, x:long, a:dynamic)[datetime(2024-01-01 03:00), "b-1", 3, dynamic([1,2]), ' +
    'datetime(2024-01-01 01:00), "a-2", 1, dynamic([5]), datetime(2024-01-01 05:00), "c-3", 5, dynamic([]), ' +
    'datetime(2024-01-01 02:00), "a-4", 2, dynamic([7,8,9]), datetime(2024-01-01 04:00), "b-5", 4, dynamic([6])]';
  const LABELS = 'datatable(k:string, label:string)["a-2","A2", "b-1","B1", "b-1","B1bis"]';
  /** Operators after `sort by t asc` that keep the rows serialized, and the order of t they leave. */
  const KEEPING: [string, 'asc' | 'desc' | 'any'][] = [
    ['sort by x desc', 'desc'],
    ['top 4 by t desc', 'desc'],
    ['take 4', 'asc'],
    ['serialize', 'asc'],
    ['extend y = x * 2', 'asc'],
    ['project t, k, x', 'asc'],
    ['project-away a', 'asc'],
    ['project-rename kk = k', 'asc'],
    ['project-keep t, x', 'asc'],
    ['project-reorder x', 'asc'],
    ['where x != 3', 'asc'],
    ['parse k with c:string "-" n:long', 'asc'],
    ['parse-where k with c:string "-" n:long', 'asc'],
    [`lookup (${LABELS}) on k`, 'asc'],
    [`lookup kind=inner (${LABELS}) on k`, 'asc'],
    ['mv-apply e = a to typeof(long) on (take 1)', 'asc'],
    ['mv-apply e = a to typeof(long) on (summarize s = sum(e))', 'asc'],
    ['as T', 'asc'],
    ['search x > 1', 'asc'],
    ['scan declare (c:long = 0) with (step s1: true => c = x + s1.c;)', 'asc'],
    ['partition by k (top 1 by t asc)', 'any'],
  ];
  /** Operators after which the rows are not serialized (serialize page; union: its page gives no order). */
  const DROPPING = [
    'mv-expand a',
    `join kind=inner (${LABELS}) on k`,
    `union (${EVENTS})`,
    'summarize x = sum(x) by t',
    'distinct t, x',
    'sample 3',
    'make-series x = sum(x) default = 0 on t step 1h | mv-expand t to typeof(datetime), x to typeof(long)',
    'top-nested 2 of t by x = sum(x)',
  ];
  /** Each window function and its value at row i of the output's x column. */
  const FUNCTIONS: [string, (xs: number[], i: number) => number | null][] = [
    ['prev(x)', (xs, i) => (i === 0 ? null : xs[i - 1]!)],
    ['next(x)', (xs, i) => (i === xs.length - 1 ? null : xs[i + 1]!)],
    ['row_number()', (_, i) => i + 1],
    ['row_cumsum(x)', (xs, i) => xs.slice(0, i + 1).reduce((a, b) => a + b, 0)],
  ];
  const cases = KEEPING.flatMap(([op, order]) => FUNCTIONS.map(([fn, value]) => [op, fn, order, value] as const));

  it.each(cases)('after %s, %s reads the rows in their output order', async (op, fn, order, value) => {
    // Act
    const query = `${EVENTS} | sort by t asc | ${op} | extend w = ${fn}, n_ = row_number(), p_ = prev(t)`;
    const names = compile(query, duckdb).columns.map((c) => c.name);
    const rows = await rowsOf(db, query);
    // Assess: numbered 1..n in output order, each prev(t) the row above's t, t in the order the operator leaves.
    const [t, x, w, n, p] = ['t', 'x', 'w', 'n_', 'p_'].map((c) => names.indexOf(c));
    const xs = rows.map((r) => r[x!] as number);
    expect(rows.length).toBeGreaterThan(1);
    rows.forEach((r, i) => {
      expect(r[n!]).toBe(i + 1);
      expect(r[p!]).toBe(i === 0 ? null : rows[i - 1]![t!]);
      expect(r[w!]).toBe(value(xs, i));
      if (i > 0 && order !== 'any') expect(String(rows[i - 1]![t!]) <= String(r[t!])).toBe(order === 'asc');
    });
  });

  it.each(DROPPING.flatMap((op) => FUNCTIONS.map(([fn]) => [op, fn] as const)))(
    'after %s, %s is a 400 at the call',
    (op, fn) => {
      // Act
      const query = `${EVENTS} | sort by t asc | ${op} | extend w = ${fn}`;
      const error = compileFailure(query, duckdb);
      // Assess
      expect(error.code).toBe('QUERY_SEMANTIC');
      expect(error.message).toMatch(new RegExp(`^1:${query.lastIndexOf(fn) + 1}: \\w+\\(\\) needs serialized input`));
    },
  );
});

describe('row_cumsum() over null terms (row_cumsum page: the sum starts at 0, restart sets it back to 0)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('is 0 before the first number of the input or of a restarted segment, and keeps its sum over a null', async () => {
    // Act: a leading null term gave null, as did a restart on a null term.
    const plain = await rowsOf(
      db,
      'datatable(a:long)[long(null), 1, long(null), 2] | serialize c = row_cumsum(a) | project c',
      duckdb,
    );
    const restarted = await rowsOf(
      db,
      'datatable(a:real, r:bool)[1.5, false, real(null), true, 2.0, false] | serialize c = row_cumsum(a, r) | project c',
      duckdb,
    );
    // Assess
    expect(plain).toEqual([[0], [1], [1], [3]]);
    expect(restarted).toEqual([[1.5], [0], [2]]);
  });
});
