// Issue 15's tabular operators at the compile() level: what each dialect accepts or refuses, and
// how the new sub-queries count towards the limits. Results are checked by the conformance corpus
// (test/conformance/cases/op-*.json) and the golden cases; this file pins the compiler's side.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileOptions, type QueryLimits } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import { compileFailure } from './compile-failure';
import { columnsAndRows } from './duckdb-rows';

const options = (dialect: CompileOptions['dialect'], limits: Partial<QueryLimits> = {}): CompileOptions => ({
  dialect,
  scope: {
    customerId: 'cust-a',
    plantIds: ['plant-1'],
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 100,
  limits: { compileBudgetMs: 60_000, ...limits },
});

const failure = (query: string, dialect: CompileOptions['dialect'] = 'duckdb', limits: Partial<QueryLimits> = {}) =>
  compileFailure(query, options(dialect, limits));

const extendTimes = (n: number): string => ' | extend z = 1'.repeat(n);

describe('tabular operators of issue 15', () => {
  it.each([
    [
      'States | join kind=inner (Events | where Active) on DeviceId, $left.Name == $right.Name | project Timestamp, Text',
      / INNER JOIN .* ON "_t\d+"\."DeviceId" = "_t\d+"\."DeviceId" AND /,
    ],
    ['States | join kind=leftanti (Events) on DeviceId', / WHERE NOT EXISTS \(SELECT 1 FROM /],
    ['States | lookup (datatable(Name:string, Label:string)["temperature", "T"]) on Name', / LEFT JOIN /],
    ['union withsource=T States, Events | summarize count() by T', / UNION ALL SELECT CAST\('Events' AS VARCHAR\) AS /],
    [
      'States | sort by Timestamp asc | extend n = row_number(1, DeviceId != prev(DeviceId))',
      /row_number\(\) OVER \(PARTITION BY "_g\d+" ORDER BY /,
    ],
  ])('compiles for Timestream too: %s', (query, fragment) => {
    // Act
    const { sql } = compile(query, options('timestream'));
    // Assess
    expect(sql).toMatch(fragment);
  });

  it('refuses mv-expand on Timestream at the operator, naming the engine', () => {
    // Act
    const error = failure('States\n| mv-expand Value', 'timestream');
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toBe('2:3: mv-expand is not supported on the timestream engine');
  });

  it('counts a join one level over its deeper input: both sides at the limit are accepted, one more refused', () => {
    // Prepare: 62 operators on the left, 63 on the right: the join is the 64th level; then one more on the right.
    const side = `range x from 1 to 2 step 1${extendTimes(62)}`;
    const ok = `${side} | join (${side} | extend w = 2) on x`;
    const deeper = `${side} | join (${side} | extend w = 2 | extend w = 3) on x`;
    // Act
    const accepted = compile(ok, options('duckdb'));
    const error = failure(deeper);
    // Assess
    expect(accepted.columns.map((c) => c.name)).toEqual(['x', 'z', 'x1', 'z1', 'w']);
    expect(error.code).toBe('QUERY_TOO_DEEP');
    expect(error.message).toContain('sub-queries of join and union included');
  });

  it('counts union legs as nested sub-queries', () => {
    // Act
    const error = failure(`union (range x from 1 to 2 step 1${extendTimes(64)})`);
    // Assess
    expect(error.code).toBe('QUERY_TOO_DEEP');
  });

  it('counts a toscalar() or in (T) query one level over the operator that reads it', () => {
    // Prepare: 62 operators inside toscalar, read by the first operator outside: accepted; one more: refused.
    const inner = (n: number): string => `range x from 1 to 2 step 1${extendTimes(n)}`;
    const ok = `print a = 1 | where a < toscalar(${inner(62)} | count)`;
    const deeper = `print a = 1 | where a in ((${inner(63)} | project x))`;
    // Act
    const accepted = compile(ok, options('duckdb'));
    const error = failure(deeper);
    // Assess
    expect(accepted.columns.map((c) => c.name)).toEqual(['a']);
    expect(error.code).toBe('QUERY_TOO_DEEP');
  });

  it.each([
    ['let m = toscalar(States | summarize max(Timestamp)); States | where Timestamp == m', /= \(SELECT .* LIMIT 1\)/],
    ['States | where Name in ((Events | distinct Name))', / IN \(SELECT .* IS NOT NULL\)/],
    [
      'States | top-nested 2 of Name with others = "rest" by count()',
      /row_number\(\) OVER \(ORDER BY count\(\*\) DESC NULLS LAST\)/,
    ],
    ['States | as T | join (T | where Name == "speed") on DeviceId', / INNER JOIN /],
  ])('compiles the operators of this branch for Timestream: %s', (query, fragment) => {
    // Act
    const { sql } = compile(query, options('timestream'));
    // Assess
    expect(sql).toMatch(fragment);
  });

  it.each([
    ['duckdb', /list_bool_and\(list_transform\(\(SELECT list\(.*regexp_escape\(__kql_term\)/],
    ['timestream', /all_match\(\(SELECT array_agg\(.*regexp_replace\(__kql_term, /],
  ] as const)(
    'compiles has_all over a tabular right side for %s, the terms escaped at run time',
    (dialect, fragment) => {
      // Act
      const { sql } = compile('States | where Name has_all ((Events | project Name))', options(dialect));
      // Assess
      expect(sql).toMatch(fragment);
    },
  );

  it('adds no others row to a top-nested level without N, whose top holds every value', () => {
    // Act
    const all = compile('States | top-nested of Name with others = "rest" by count()', options('duckdb'));
    const two = compile('States | top-nested 2 of Name with others = "rest" by count()', options('duckdb'));
    // Assess
    expect(all.sql).not.toMatch(/'rest'/);
    expect(two.sql).toMatch(/ UNION ALL SELECT CAST\('rest' AS VARCHAR\)/);
  });

  it('refuses a tabular right side of has_any whose first column is not a string, at its position, in both dialects', () => {
    for (const dialect of ['duckdb', 'timestream'] as const) {
      // Act
      const error = failure('States | where Name has_any ((Events | project Timestamp))', dialect);
      // Assess
      expect(error.code).toBe('QUERY_SEMANTIC');
      expect(error.message).toMatch(/^1:30: has_any looks for string terms/);
    }
  });

  it('refuses a window function on input that is not serialized, at the call', () => {
    // Act
    const error = failure('States | extend p = prev(Value)');
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(/^1:21: prev\(\) needs serialized input/);
  });

  it('refuses it after a datatable too, which the serialize page does not list, and takes getschema, which it lists', () => {
    // Act
    const error = failure('datatable(v:long)[1, 2] | extend p = prev(v)');
    const { columns } = compile('datatable(v:long)[1] | getschema | extend p = prev(ColumnName)', options('duckdb'));
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(/^1:38: prev\(\) needs serialized input/);
    expect(columns.at(-1)).toEqual({ name: 'p', type: 'string' });
  });

  it.each([
    ['as', 'range x from 1 to 3 step 1 | sort by x desc | as T | extend p = prev(x)'],
    ['search', 'range x from 1 to 3 step 1 | sort by x desc | search x > 1 | extend p = prev(x)'],
  ])('keeps the serialization through %s (the serialize page lists it in neither list)', (_, query) => {
    // Act
    const { sql } = compile(query, options('duckdb'));
    // Assess: prev() reads the rows in the sort's order.
    expect(sql).toMatch(/lag\("_c1", 1\) OVER \(ORDER BY "_c1" DESC NULLS LAST(, "_r\d+" ASC NULLS LAST)?\)/);
  });

  it('numbers the rows of serialize without sort by their arrival, and re-applies that order outside', () => {
    // Act
    const { sql } = compile('datatable(a:long)[3, 1, 2] | serialize n = row_number()', options('duckdb'));
    // Assess
    expect(sql).toMatch(/row_number\(\) OVER \(\) AS "_s\d+"/);
    expect(sql).toMatch(/ORDER BY "_s\d+" ASC NULLS LAST LIMIT 101$/);
  });
});

describe('top-nested with an algebraic combination of aggregations (top-nested page: supported)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  const DATA = 'datatable(g:string, h:string, v:long)["a","x",1, "a","y",5, "b","x",2, "b","z",7, "c","x",4]';

  it('ranks and names each level by its expression, with others aggregated the same way', async () => {
    // Act
    const levels = await columnsAndRows(
      db,
      `${DATA} | top-nested 2 of g by r = sum(v) / count(), top-nested 1 of h by max(v) * 10 - min(v) | sort by g asc`,
    );
    const others = await columnsAndRows(
      db,
      `${DATA} | top-nested 1 of g with others = "o" by todouble(sum(v)) / count() | sort by g asc`,
    );
    // Assess: averages a 3, b 4, c 4 (integer division); then b's z (70 - 7) over its x (20 - 2).
    expect(levels.columns).toEqual(['g:string', 'r:long', 'h:string', 'aggregated_h:long']);
    expect(levels.rows).toEqual([
      ['b', 4, 'z', 63],
      ['c', 4, 'x', 36],
    ]);
    expect(others.columns).toEqual(['g:string', 'aggregated_g:real']);
    expect(others.rows).toEqual([
      ['b', 4.5],
      ['o', 10 / 3],
    ]);
  });

  it('refuses a column outside the aggregation calls, at the aggregation (as summarize does)', () => {
    expect(failure(`${DATA} | top-nested 2 of g by sum(v) + v`).message).toBe(
      "1:117: 'v' must be inside an aggregation function",
    );
  });

  it('ranks a NaN aggregation with the nulls, after every number (sort page: null and NaN grouped)', async () => {
    // Arrange: sums a NaN, b 1, c 2, d 0 (sum of a null). DuckDB ordered NaN above +inf, and its
    // row_number() filter picked varying wrong rows with a NaN key (asc gave d and a, or a and b).
    const data = 'datatable(k:string, x:real)["a", real(nan), "b", 1.0, "c", 2.0, "d", real(null)]';
    // Act
    const asc = await columnsAndRows(db, `${data} | top-nested 2 of k by s = sum(x) asc | sort by k asc`);
    const desc = await columnsAndRows(db, `${data} | top-nested 2 of k by s = sum(x) | sort by k asc`);
    const all = await columnsAndRows(db, `${data} | top-nested 4 of k by s = sum(x) | sort by k asc`);
    // Assess
    expect(asc.rows).toEqual([
      ['b', 1],
      ['d', 0],
    ]);
    expect(desc.rows).toEqual([
      ['b', 1],
      ['c', 2],
    ]);
    expect(all.rows.map((r) => r[0])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('answers no row for a top-nested 1 of an empty input (DuckDB turned rank <= 1 into an aggregate)', async () => {
    // Arrange: the where leaves no rows; a kept rank of 1 was the shape DuckDB rewrote into an
    // aggregate without GROUP BY, which answered one row of nulls.
    const data = 'datatable(k:string, n:long)["a", 1, "b", 2, "a", 3]';
    // Act
    const empty = await columnsAndRows(db, `${data} | where n > 5 | top-nested 1 of k by c = count()`);
    const emptyOthers = await columnsAndRows(
      db,
      `${data} | where n > 5 | top-nested 1 of k with others = "o" by c = count()`,
    );
    const one = await columnsAndRows(db, `${data} | top-nested 1 of k by c = count()`);
    // Assess
    expect(empty.rows).toEqual([]);
    expect(emptyOthers.rows).toEqual([]);
    expect(one.rows).toEqual([['a', 2]]);
  });
});

describe('distinct of expressions (Kusto.Language reads them as summarize keys)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('names them as summarize by names its keys, and keeps each distinct combination once', async () => {
    // Act
    const computed = await columnsAndRows(db, 'range x from 1 to 4 step 1 | distinct x % 2 | sort by Column1 asc');
    const mixed = await columnsAndRows(
      db,
      'datatable(k:string)["a","bb","cc","a"] | distinct n = strlen(k), k | sort by k asc',
    );
    // Assess
    expect(computed).toEqual({ columns: ['Column1:long'], rows: [[0], [1]] });
    expect(mixed).toEqual({
      columns: ['n:long', 'k:string'],
      rows: [
        [1, 'a'],
        [2, 'bb'],
        [2, 'cc'],
      ],
    });
  });

  it('reads and ignores hints before the columns, as summarize does; a column named hint stays a column', async () => {
    // Prepare
    const data = 'datatable(k:string, hint:string)["a", "x", "b", "y", "a", "x"]';
    // Act
    const hinted = await columnsAndRows(
      db,
      `${data} | distinct hint.strategy=shuffle hint.shufflekey=k k | sort by k asc`,
    );
    const column = await columnsAndRows(db, `${data} | distinct hint | sort by hint asc`);
    // Assess
    expect(hinted).toEqual({ columns: ['k:string'], rows: [['a'], ['b']] });
    expect(column).toEqual({ columns: ['hint:string'], rows: [['x'], ['y']] });
  });
});

describe('the spellings without the hyphen, mvexpand and mvapply (the grammar folds them; mv-expand page: legacy)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('expands at most 128 elements per row with mvexpand, as the page says of the legacy form, unless a limit is given', async () => {
    // Prepare
    const source = 'print a = range(1, 200)';
    // Act
    const legacy = await columnsAndRows(db, `${source} | mvexpand a | count`);
    const limited = await columnsAndRows(db, `${source} | mvexpand a limit 3 | count`);
    const current = await columnsAndRows(db, `${source} | mv-expand a | count`);
    // Assess
    expect(legacy.rows).toEqual([[128]]);
    expect(limited.rows).toEqual([[3]]);
    expect(current.rows).toEqual([[200]]);
  });

  it('reads mvapply as mv-apply', async () => {
    // Act
    const result = await columnsAndRows(
      db,
      'datatable(k:string, xs:dynamic)["a", dynamic([3, 1, 2])] | mvapply x = xs to typeof(long) on (top 1 by x)',
    );
    // Assess
    expect(result.columns).toEqual(['k:string', 'xs:dynamic', 'x:long']);
    expect(result.rows).toEqual([['a', [3, 1, 2], 3]]);
  });
});
