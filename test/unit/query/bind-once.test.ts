// The DuckDB fragments that name a value several times bind a long value once (lib/query/sql/bind-once.ts):
// nested calls grow the SQL linearly, and a plain column keeps the fast form without a lambda.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions } from './compile-failure';
import { rowsOf as duckRows } from './duckdb-rows';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const nested = (call: (e: string) => string, depth: number): string => {
  let e = 'y';
  for (let i = 0; i < depth; i++) e = call(e);
  return compile(`print y = dynamic([1, 2]) | extend z = ${e}`, duck).sql;
};

describe('bindOnce: values named several times in the DuckDB SQL', () => {
  it.each([
    ['series_add', (e: string) => `series_add(${e}, 1)`],
    ['series_multiply', (e: string) => `series_multiply(${e}, 2)`],
    ['array_concat', (e: string) => `array_concat(${e}, y)`],
    ['array_slice', (e: string) => `array_slice(${e}, 0, 9)`],
    ['array_sort_asc', (e: string) => `array_sort_asc(${e})`],
    ['strcat_array', (e: string) => `split(strcat_array(${e}, ','), ',')`],
  ])('grows the SQL of nested %s calls by the same amount at every level (it doubled)', (_name, call) => {
    // Act
    const sizes = [2, 3, 4, 5, 6].map((depth) => nested(call, depth).length);
    // Assess
    const steps = sizes.slice(1).map((size, i) => size - sizes[i]!);
    expect(Math.max(...steps)).toBe(Math.min(...steps));
  });

  it('keeps todouble() of a column in its fast form, without a lambda', () => {
    // Act
    const sql = compile('States | summarize avg(todouble(Value))', duck).sql;
    // Assess
    expect(sql).toContain('TRY_CAST(CAST("Value" AS VARCHAR) AS DOUBLE)');
    expect(sql).not.toContain('_dv');
  });

  it('evaluates a long argument of todouble() once', () => {
    // Act
    const sql = compile(
      'print y = dynamic([1, 2]) | extend s = todouble(series_fit_line_dynamic(series_add(y, 1)).slope)',
      duck,
    ).sql;
    // Assess
    expect(sql).toContain('_dv -> coalesce(TRY_CAST(CAST(_dv AS VARCHAR) AS DOUBLE)');
  });
});

// DuckDB refuses a subquery inside a lambda's body ("subqueries in lambda expressions are not
// supported"); the array functions that read their argument inside a lambda bind a toscalar() once.
describe('bindRepeated: a toscalar() array argument of a function with a lambda', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const rowsOf = (query: string): Promise<unknown[][]> => duckRows(db, query, duck);
  const lets =
    'let t = toscalar(datatable(x:long)[3, 1] | summarize make_list(x)); let u = toscalar(print dynamic([5]));';

  it('runs the array functions over a toscalar() let, nested and beside a column', async () => {
    expect(
      await rowsOf(
        `${lets} print a = array_sort_asc(t), b = set_intersect(t, dynamic([1])), c = zip(t, u), d = array_sort_asc(series_add(t, u)), e = jaccard_index(t, u)`,
      ),
    ).toEqual([
      [
        [1, 3],
        [1],
        [
          [3, 5],
          [1, null],
        ],
        [8, null],
        0,
      ],
    ]);
    expect(await rowsOf(`${lets} datatable(d:dynamic)[dynamic([1, 1])] | project s = series_add(d, t)`)).toEqual([
      [[4, 2]],
    ]);
    const terms = 'let w = toscalar(datatable(x:string)["err", "warn"] | summarize make_list(x));';
    expect(await rowsOf(`${terms} datatable(s:string)["an err", "ok", "WARN!"] | project has_any_index(s, w)`)).toEqual(
      [[0], [-1], [1]],
    );
  });
});

describe('bindDraws: an argument that draws at random is one value however often its SQL is named', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const rowsOf = (query: string): Promise<unknown[][]> => duckRows(db, query, duck);
  const draws = (sql: string): number => sql.split('random()').length - 1;

  it('checks and builds make_datetime() from one draw of its day (two draws failed in the engine)', async () => {
    // Act: the day is 0 or 1; a check reading 1 and a date reading 0 was an engine error.
    const rows = await rowsOf(
      'range i from 1 to 200 step 1 | extend r = make_datetime(2000, 1, tolong(rand() * 2)) | summarize by r',
    );
    // Assess
    expect(rows.map((r) => r[0]).sort()).toEqual([null, '2000-01-01T00:00:00Z'].sort());
  });

  it('compares a drawn value with itself as equal, through iff(), between and dynamic access', async () => {
    // Act
    const rows = await rowsOf(
      [
        'range i from 1 to 200 step 1',
        'extend a = iff(bin(tolong(rand() * 4), 2) % 2 == 0, 1, 0)',
        'extend b = rand() * 2 between (0.0 .. 2.0)',
        'extend c = isnotnull(dynamic([1, 2])[tolong(rand() * 2)])',
        'summarize min(a), min(b), min(c)',
      ].join(' | '),
    );
    // Assess: bin(x, 2) is even when x is read once; the others hold for every draw read once.
    expect(rows).toEqual([[1, true, true]]);
  });

  it('writes each argument that draws once, and two draws written alike stay two', () => {
    // Act
    const one = compile('print make_datetime(2000, 1, tolong(rand() * 2))', duck).sql;
    const two = compile('print strcat(rand(), "-", rand()), pack_array(new_guid(), new_guid())', duck).sql;
    // Assess
    expect(draws(one)).toBe(1);
    expect(draws(two)).toBe(2);
    expect(two.split('uuid()').length - 1).toBe(2);
  });
});
