// What the sixth sweep of the documentation's examples (function, aggregation and plugin pages)
// changed: array_sort_asc / array_sort_desc of several arrays sort the first and order the others
// to match (the array_sort pages), one column per array when unnamed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';
import { columnsAndRows } from './duckdb-rows';

const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

/** The query's columns (name:type) and its rows on DuckDB. */
const run = (query: string): ReturnType<typeof columnsAndRows> => columnsAndRows(db, query);

const arrays = 'let array1 = dynamic([1,3,4,5,2]); let array2 = dynamic(["a","b","c","d","e"]);';

describe('array_sort of several arrays', () => {
  it.each([
    // The pages' example 1: one column per array, named after it.
    [
      `${arrays} print array_sort_asc(array1, array2)`,
      ['array1_sorted:dynamic', 'array2_sorted:dynamic'],
      [
        [1, 2, 3, 4, 5],
        ['a', 'e', 'b', 'c', 'd'],
      ],
    ],
    [
      `${arrays} print array_sort_desc(array1, array2)`,
      ['array1_sorted:dynamic', 'array2_sorted:dynamic'],
      [
        [5, 4, 3, 2, 1],
        ['d', 'c', 'b', 'e', 'a'],
      ],
    ],
    // Arrays that name nothing are array<i> (Kusto.Language); nulls_last false puts the nulls first.
    [
      'print array_sort_asc(dynamic([2, null, 1]), dynamic(["b", "n", "a"]), false)',
      ['array0_sorted:dynamic', 'array1_sorted:dynamic'],
      [
        [null, 1, 2],
        ['n', 'a', 'b'],
      ],
    ],
    // An array whose length differs from the first's is null (the pages' Returns).
    [
      'print s = 1 | extend (a, b, c) = array_sort_desc(dynamic([1, 2]), dynamic([3, 4]), dynamic([5]))',
      ['s:long', 'a:dynamic', 'b:dynamic', 'c:dynamic'],
      [1, [2, 1], [4, 3], null],
    ],
    // With fewer names the others keep their default names (Kusto.Language).
    [
      'print s = 1 | project (a, b) = array_sort_asc(dynamic([2, 1]), dynamic([3, 4]), dynamic([5, 6]))',
      ['a:dynamic', 'b:dynamic', 'array2_sorted:dynamic'],
      [
        [1, 2],
        [4, 3],
        [6, 5],
      ],
    ],
    // A name for the whole call: the array of the sorted arrays, which the pages' example 3 indexes.
    [
      'print x = array_sort_asc(dynamic([2, 1]), dynamic([3, 4]))',
      ['x:dynamic'],
      [
        [
          [1, 2],
          [4, 3],
        ],
      ],
    ],
  ])('%s', async (query, columns, row) => {
    expect(await run(query)).toEqual({ columns, rows: [row] });
  });

  it("orders the pages' commands by their timestamps (example 3)", async () => {
    const got = await run(`datatable(command:string, command_time:datetime, user_id:string)
      ['chmod', datetime(2019-07-15), "user1", 'ls', datetime(2019-07-02), "user1", 'dir', datetime(2019-07-22), "user1",
       'mkdir', datetime(2019-07-14), "user1", 'rm', datetime(2019-07-27), "user1", 'pwd', datetime(2019-07-25), "user1",
       'rm', datetime(2019-07-23), "user2", 'pwd', datetime(2019-07-25), "user2"]
      | summarize timestamps = make_list(command_time), commands = make_list(command) by user_id
      | project user_id, asc = array_sort_asc(timestamps, commands)[1], desc = array_sort_desc(timestamps, commands)[1]
      | order by user_id asc`);
    expect(got.rows).toEqual([
      ['user1', ['ls', 'mkdir', 'chmod', 'dir', 'pwd', 'rm'], ['rm', 'pwd', 'dir', 'chmod', 'mkdir', 'ls']],
      ['user2', ['rm', 'pwd'], ['pwd', 'rm']],
    ]);
  });

  it('numbers a name the operator already gives (Kusto.Language: x_sorted1)', async () => {
    const got = await run(
      'print x = dynamic([2, 1]), y = dynamic(["b", "a"]) | extend x_sorted = 0, array_sort_asc(x, y)',
    );
    expect(got).toEqual({
      columns: ['x:dynamic', 'y:dynamic', 'x_sorted:long', 'x_sorted1:dynamic', 'y_sorted:dynamic'],
      rows: [[[2, 1], ['b', 'a'], 0, [1, 2], ['a', 'b']]],
    });
  });

  it('still sorts one array with a nulls_last argument', async () => {
    expect((await run('print array_sort_desc(dynamic([1, null, 3]), false)')).rows).toEqual([[[null, 3, 1]]]);
  });

  it('refuses a non-constant nulls_last, as Kusto.Language does', () => {
    expectRefusedAt('print b = true | extend array_sort_asc(dynamic([1]), dynamic([2]), b)', options, {
      code: 'QUERY_SEMANTIC',
      message: 'expects dynamic arrays, then an optional constant nulls_last',
      position: '1:68',
    });
  });

  it('is refused on Timestream with the function named', () => {
    expectRefusedAt(
      `${arrays} print array_sort_asc(array1, array2)`,
      { ...GOLDEN_OPTIONS, dialect: 'timestream' },
      {
        code: 'QUERY_UNSUPPORTED',
        message: 'array_sort_asc() is not supported on the Timestream engine',
        position: '1:87',
      },
    );
  });
});
