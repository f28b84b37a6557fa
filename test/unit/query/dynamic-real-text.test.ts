// The text of reals inside dynamic values (tostring, strcat, strcat_array, dynamic_to_json): Kusto
// writes them as Json.NET writes a double, .NET's round-trip text with a whole number keeping `.0`
// (the series_stats_dynamic page prints {"min": 2.0, ..., "sum": 492.0}); tostring() of a real is
// the same text without the `.0` (fn-probe6-tostring-real-dotnet-text). The engine's JSON writer
// writes 1e-7, 100000000000000000000.0 and 0.00001 where .NET writes 1E-07, 1E+20 and 1E-05.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { dotnetJsonRealText, dotnetRealText } from './dotnet-real-text';
import { rowsOf } from './duckdb-rows';

describe('reals inside dynamic values as text', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('writes every real as .NET does, over all decades of the double and both signs', async () => {
    // Arrange: 1E-320 .. 1E+319 (the last ones infinite), integral and not, in arrays and bags
    const query =
      'range i from 1 to 4000 step 1 | extend r = (i % 2 * 2 - 1) * pow(10.0, i % 640 - 320) * iff(i % 3 == 0, 1.0, 1 + i / 7.0) | where isfinite(r) | project r, s = tostring(r), a = tostring(pack_array(r, 1)), b = strcat(bag_pack("k", r)), j = tostring(parse_json(tostring(pack_array(r))))';
    // Act
    const rows = await rowsOf(db, query, { ...GOLDEN_OPTIONS, dialect: 'duckdb', rowLimit: 10_000 });
    // Assess
    expect(rows.length).toBeGreaterThan(3500);
    const wrong = rows.filter(([r, s, a, b, j]) => {
      const json = dotnetJsonRealText(r as number);
      return s !== dotnetRealText(r as number) || a !== `[${json},1]` || b !== `{"k":${json}}` || j !== `[${json}]`;
    });
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('chooses the notation by the number of digits between 1E+15 and 1E+17, as .NET does', async () => {
    // Arrange: 1, 15, 16 and 17 significant digits on both sides of 1E+16
    const values = [
      1e15, -1.5e15, 1234567890123450, 1234567890123456, 1234567890123456.8, 1e16, 1.5e16, 12345678901234568,
      1.234567890123456e16, 99999999999999980,
    ];
    // Act
    const rows = await rowsOf(db, `print s = tostring(dynamic([${values.map((v) => v.toExponential()).join(', ')}]))`);
    // Assess
    expect(rows).toEqual([[`[${values.map(dotnetJsonRealText).join(',')}]`]]);
    expect(rows[0]![0]).toBe(
      '[1E+15,-1.5E+15,1.23456789012345E+15,1234567890123456.0,1234567890123456.8,1E+16,1.5E+16,12345678901234568.0,1.234567890123456E+16,9.999999999999998E+16]',
    );
  });

  it('writes the reals of dynamic literals, parse_json, make_list and nested values as .NET does', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = tostring(dynamic([1e-7, 1e20, 0.1, 1.5e300, -0.0, 1e15, 0.00001, 0.0001, 2.0, real(5), 7])), b = tostring(parse_json("[1e-7, 1E5, 20.50, 123456789012345678.0]")), c = tostring(dynamic([[1e-7, [2.5e-9, {"a": 1e21}]], {"b": {"c": [0.00001, 1e16]}}])), d = tostring(dynamic(1e-7)), e = strcat(dynamic({"b": 1.5e-8}), "|", pack_array(1e-7)) | extend f = toscalar(range i from 1 to 3 step 1 | summarize tostring(make_list(i * 1e-7)))',
    );
    // Assess
    expect(rows).toEqual([
      [
        '[1E-07,1E+20,0.1,1.5E+300,-0.0,1E+15,1E-05,0.0001,2.0,5.0,7]',
        '[1E-07,100000.0,20.5,1.2345678901234568E+17]',
        '[[1E-07,[2.5E-09,{"a":1E+21}]],{"b":{"c":[1E-05,1E+16]}}]',
        '1E-07',
        '{"b":1.5E-08}|[1E-07]',
        '[1E-07,2E-07,3E-07]',
      ],
    ]);
  });

  it('leaves strings, keys and integers as written, and the answer keeps the values', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print d = dynamic({"k1e5": "2.5e-7 0.00001 1234567890123456.5", "x\\"1e5": [9007199254740993, 12345678901234567], "y": 1e-7}) | extend s = tostring(d)',
    );
    // Assess
    expect(rows).toEqual([
      [
        { k1e5: '2.5e-7 0.00001 1234567890123456.5', 'x"1e5': ['9007199254740993', '12345678901234567'], y: 1e-7 },
        '{"k1e5":"2.5e-7 0.00001 1234567890123456.5","x\\"1e5":[9007199254740993,12345678901234567],"y":1E-07}',
      ],
    ]);
  });

  it('writes the elements of strcat_array and dynamic_to_json as tostring() does', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = strcat_array(dynamic([1e-7, 1e20, 2.0, "x", {"a": 1e-7}]), ","), b = dynamic_to_json(dynamic({"b": 1e-7, "a": [1e20, 2.0, "1e5"]}))',
    );
    // Assess
    expect(rows).toEqual([['1E-07,1E+20,2.0,x,{"a":1E-07}', '{"a":[1E+20,2.0,"1e5"],"b":1E-07}']]);
  });

  it('writes a number beyond the double range as the string of an infinite real', async () => {
    // Act: it was 'Infinity.0', no JSON
    const rows = await rowsOf(db, 'print tostring(parse_json("[1e400, -1e999]")), tostring(dynamic([1e400]))');
    // Assess
    expect(rows).toEqual([['["Infinity","-Infinity"]', '["Infinity"]']]);
  });
});

describe('negative zero and decimals inside dynamic values', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('writes negative zero as .NET Core does: tostring(-0.0) is -0, and -0.0 inside a dynamic value', async () => {
    // Act: tostring(-0.0) was "0"
    const rows = await rowsOf(
      db,
      'print tostring(-0.0), tostring(0.0), tostring(-0.0 * 1), tostring(round(-0.4)), tostring(pack_array(-0.0, 0.0)), strcat(-0.0)',
    );
    // Assess
    expect(rows).toEqual([['-0', '0', '-0', '-0', '[-0.0,0.0]', '-0']]);
  });

  it('snaps a decimal inside a dynamic value as the answer and tostring() snap a decimal column', async () => {
    // Act: they were 0.30000000000000004 and 3.3000000000000003
    const rows = await rowsOf(
      db,
      'print p = pack_array(decimal(0.1) + decimal(0.2)), b = bag_pack("a", decimal(1.1) * 3, "n", decimal(null)), s = tostring(pack_array(decimal(0.1) + decimal(0.2))) | extend l = toscalar(range i from 1 to 3 step 1 | summarize make_list(todecimal(i) * decimal(0.1)))',
    );
    // Assess
    expect(rows).toEqual([[[0.3], { a: 3.3, n: null }, '[0.3]', [0.1, 0.2, 0.3]]]);
  });
});
