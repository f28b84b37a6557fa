// A dynamic Value/Metadata compared, counted and ordered as integrators write it. Beside a text a
// dynamic value is compared as its tostring() text, so a null one is "" there (strings have no null:
// the null values page); the distinct counts ignore nulls (the same page); ordering a dynamic value is
// defined only against a number (Kusto.Language); beside an integer beyond 2^53 it is exact.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';
import { rowsOf } from './duckdb-rows';

const OPTIONS = { ...GOLDEN_OPTIONS, dialect: 'duckdb' } as const;
// The kinds of values a GDM Value holds, the null one among them.
const D =
  'datatable(i:long, Value:dynamic)[1, dynamic(20.5), 2, dynamic("on"), 3, dynamic(null), 4, dynamic(""), 5, dynamic([1,2]), 6, dynamic({"a":1})]';

describe('dynamic values beside text, in distinct counts, and ordered', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const rows = (query: string): Promise<unknown[][]> => rowsOf(db, query);
  const kept = async (predicate: string): Promise<unknown[]> =>
    (await rows(`${D} | where ${predicate} | order by i asc | project i`)).map((r) => r[0]);

  it.each([
    // A null dynamic is "" as a text, as tostring() makes it; isempty() finds both.
    ['Value == ""', [3, 4]],
    ['Value != ""', [1, 2, 5, 6]],
    ['Value == "on"', [2]],
    ['Value != "on"', [1, 3, 4, 5, 6]],
    ['"" == Value', [3, 4]],
    ['Value =~ ""', [3, 4]],
    ['Value !~ ""', [1, 2, 5, 6]],
    ['Value in ("", "on")', [2, 3, 4]],
    ['Value !in ("")', [1, 2, 5, 6]],
    ['Value in~ ("", "ON")', [2, 3, 4]],
    ['Value in ("", 20.5)', [1, 3, 4]],
    ['Value in ((print t = "" | union (print t = "on")))', [2, 3, 4]],
    ['isempty(Value)', [3, 4]],
    ['isnull(Value)', [3]],
  ])('where %s keeps rows %j', async (predicate, expected) => {
    // Act
    const got = await kept(predicate);
    // Assess
    expect(got).toEqual(expected);
  });

  it('finds the rows without a unit with == "" and among != "degC"', async () => {
    // Act
    const [[empty, other]] = (await rows(
      'States | summarize countif(Metadata.unit == ""), countif(Metadata.unit != "degC")',
    )) as [[number, number]];
    const [[missing]] = (await rows('States | summarize countif(isnull(Metadata.unit))')) as [[number]];
    // Assess: the fixture holds three rows without a unit, six in degC, three in another unit.
    expect(missing).toBe(3);
    expect(empty).toBe(missing);
    expect(other).toBe(6);
  });

  it('ignores null dynamic values in dcount, dcountif, count_distinct and count_distinctif', async () => {
    // Act
    const [got] = await rows(
      `${D} | summarize dcount(Value), dcountif(Value, true), count_distinct(Value), count_distinctif(Value, true), dcount(Value.missing)`,
    );
    // Assess: five non-null values; a missing member is null in every row.
    expect(got).toEqual([5, 5, 5, 5, 0]);
  });

  it('counts the fixture Values without their null', async () => {
    // Act
    const [[distinct, nonNull]] = (await rows(
      'States | summarize dcount(Value), dcount(tostring(Value)) - countif(isnull(Value))',
    )) as [[number, number]];
    // Assess: tostring() of the null is "", a value of its own.
    expect(distinct).toBe(nonNull);
  });

  it.each([
    ['Value > "20"', '1:22', 'not a string; convert it first, e.g. tostring(...)'],
    ['"a" <= Value', '1:20', 'not a string'],
    ['Value < datetime(2024-01-01)', '1:22', 'not a datetime; convert it first, e.g. todatetime(...)'],
    ['Value >= 1h', '1:22', 'not a timespan; convert it first, e.g. totimespan(...)'],
    ['Value > true', '1:22', 'not a bool'],
    ['Value between ("a" .. "b")', '1:16', 'not a string'],
  ])('refuses States | where %s, as Kusto.Language does', (predicate, position, message) => {
    // Act + Assess
    expectRefusedAt(`States | where ${predicate}`, OPTIONS, {
      code: 'QUERY_SEMANTIC',
      message: `a dynamic value is ordered only against a number, ${message}`,
      position,
    });
  });

  it.each([
    // As reals 9007199254740993 and 9007199254740992 are one number; as longs they differ.
    ['Value == 9007199254740992', [7]],
    ['Value != 9007199254740992', [1, 2, 3, 4, 5, 6, 8, 9]],
    ['Value > 9007199254740992', [1, 2, 3]],
    ['9007199254740992 < Value', [1, 2, 3]],
    ['Value == 9007199254740993', [1, 3]],
    ['Value <= -9007199254740993', [6]],
    ['Value between (9007199254740993 .. 9007199254740994)', [1, 3]],
    ['Value !between (9007199254740993 .. 9007199254740994)', [2, 5, 6, 7, 8, 9]],
    ['Value between (0 .. 9007199254740992)', [5, 7]],
    // A fraction is compared as a real, never truncated across a small bound (-0.5 is not >= 0).
    ['Value between (-1 .. 9007199254740993)', [1, 3, 5, 7, 8]],
    ['Value between (0 .. 9007199254740993)', [1, 3, 5, 7]],
    ['Value in (9007199254740993, 20.5)', [1, 3, 5]],
    ['Value !in (9007199254740992)', [1, 2, 3, 4, 5, 6, 8, 9]],
  ])('compares a JSON integer beyond 2^53 exactly: where %s keeps %j', async (predicate, expected) => {
    // Prepare: a long beyond 2^53, a real beyond the longs, its text, a null, a fraction, -1e300, 2^53 as a real.
    const big =
      'datatable(i:long, Value:dynamic)[1, dynamic(9007199254740993), 2, dynamic(1e300), 3, dynamic("9007199254740993"), 4, dynamic(null), 5, dynamic(20.5), 6, dynamic(-1e300), 7, dynamic(9007199254740992.0), 8, dynamic(-0.5), 9, dynamic(-1.5)]';
    // Act
    const got = (await rows(`${big} | where ${predicate} | order by i asc | project i`)).map((r) => r[0]);
    // Assess
    expect(got).toEqual(expected);
  });

  it('still orders a dynamic value against numbers', async () => {
    // Act
    const got = await kept('Value > 20 or Value between (0 .. 1) or Value <= decimal(1)');
    // Assess
    expect(got).toEqual([1]);
  });
});
