// What the second sweep of the documentation's examples (cheat sheets, time series, join flavor,
// function pages) changed: print names a let variable's column print_N (parse_json page), a where
// after an innerunique join that reads only left columns filters before the deduplication
// (join-innerunique page), and (a, b) = over a refused function gives that function's reason.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';

const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };
const columns = (query: string): string[] => compile(query, options).columns.map((c) => `${c.name}:${c.type}`);

describe('print column names', () => {
  it.each([
    // The parse_json page prints print_0 for `let d = '...'; print d`.
    [`let d = '{"a":1}'; print d`, ['print_0:string']],
    ['let d = 2; print d, e = 1, d', ['print_0:long', 'e:long', 'print_2:long']],
    [
      'let d = dynamic({"a": 1}); print d.a, d["a"], tostring(d), strlen(tostring(d))',
      ['print_0:dynamic', 'print_1:dynamic', 'print_2:string', 'print_3:long'],
    ],
    ['let x = 1; print y = x', ['y:long']],
  ])('%s', (query, expected) => {
    expect(columns(query)).toEqual(expected);
  });

  it('keeps the let variable name where an operator has input columns (extend, project)', () => {
    expect(columns('let d = "x"; print a = 1 | extend d | project d, a')).toEqual(['d:string', 'a:long']);
  });

  it('still names the columns of series_stats() in print', () => {
    expect(columns('let s = dynamic([1, 2]); print series_stats(s)')[0]).toBe('series_stats_s_min:real');
  });
});

describe('where after an innerunique join', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const rows = async (query: string): Promise<unknown[][]> => {
    const compiled = compile(query, options);
    const got = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return got.map((r) => [...r]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  };
  const tables = `let t1 = datatable(key: long, value: string)[1, "val1.1", 1, "val1.2"];
let t2 = datatable(key: long, value: string)[1, "val1.3", 1, "val1.4"];
`;

  it('filters the left rows before their keys are deduplicated (the join-innerunique page)', async () => {
    const got = await rows(`${tables}t1 | join kind = innerunique t2 on key | where value == "val1.2"`);
    expect(got).toEqual([
      [1, 'val1.2', 1, 'val1.3'],
      [1, 'val1.2', 1, 'val1.4'],
    ]);
  });

  it('keeps one left row per key when the where reads a right column', async () => {
    const got = await rows(`${tables}t1 | join kind = innerunique t2 on key | where value1 == "val1.4"`);
    expect(got).toHaveLength(1);
    expect(got[0]!.slice(2)).toEqual([1, 'val1.4']);
  });

  it.each([
    ['where * has "val1.4"'],
    ['where tostring(column_ifexists("value1", "")) == "val1.4"'],
    ['where tostring(pack_all()) has "val1.4"'],
  ])('searches the joined row, right columns included, for a predicate naming no column: %s', async (where) => {
    const got = await rows(`${tables}t1 | join kind = innerunique t2 on key | ${where}`);
    expect(got).toHaveLength(1);
    expect(got[0]!.slice(2)).toEqual([1, 'val1.4']);
  });

  it('filters after an inner join as written (no deduplication to pass)', async () => {
    const got = await rows(`${tables}t1 | join kind = inner t2 on key | where value == "val1.2"`);
    expect(got).toHaveLength(2);
  });

  it('still refuses a where that names a column of neither side', () => {
    expectRefusedAt(`${tables}t1 | join t2 on key | where nosuch == 1`, options, {
      code: 'QUERY_SEMANTIC',
      message: "unknown column 'nosuch'",
      position: '3:29',
    });
  });
});

describe('(a, b, ...) = over a refused function', () => {
  it("gives the function's own reason at its name", () => {
    expectRefusedAt(
      'print s = dynamic([1]) | extend (a, b, c) = series_decompose_anomalies(s, 1.5, -1, "linefit")',
      options,
      {
        code: 'QUERY_UNSUPPORTED',
        message: "the function 'series_decompose_anomalies' is not supported: ",
        position: '1:45',
      },
    );
  });

  it('still says the form needs a function of several columns for one that gives one', () => {
    expectRefusedAt('print s = dynamic([1]) | extend (a, b) = strlen("x")', options, {
      code: 'QUERY_SEMANTIC',
      message: '(a, b, ...) = names the columns of a function that gives several',
      position: '1:33',
    });
  });
});
