// Calls Kusto.Language accepts and the compiler refuses, found by the signature sweep (every function
// with arguments of every scalar type): each refusal says why, since no Kusto page defines the answer.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt, expectFunctionRefused } from './compile-failure';
import { rowsOf } from './duckdb-rows';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

/** One row of every scalar type but guid, as columns. */
const ROW = 'datatable(b:bool, l:long, r:real, s:string, y:dynamic) [true, 2, 1.5, "(a)", dynamic(["x"])]';

const DATETIME_FORM = 'for a count of seconds since 1970 write unixtime_seconds_todatetime(x)';
const TIMESPAN_FORM = 'write its unit: x * 1s';

describe('todatetime() and totimespan() of a value that is not text', () => {
  it.each([
    ['print x = todatetime(1)', 'todatetime', 'long', DATETIME_FORM],
    ['print x = todatetime(int(1))', 'todatetime', 'int', DATETIME_FORM],
    ['print x = totimespan(10)', 'totimespan', 'long', TIMESPAN_FORM],
    ['print x = totime(1.5)', 'totimespan', 'real', TIMESPAN_FORM],
  ])('%s is refused as undefined by the pages, with the explicit form to write', (query, fn, type, form) => {
    // Act, Assess: both engines, at the argument.
    for (const options of [duck, ts])
      expectRefusedAt(query, options, {
        code: 'QUERY_UNSUPPORTED',
        message: `${fn}() of a ${type} is not supported: its page converts text, and no Kusto page says what a ${type} converts to; ${form}`,
        position: `1:${query.indexOf('(') + 2}`,
      });
  });

  it('offers no unit for a bool, which is no count of anything', () => {
    // Act, Assess
    expectRefusedAt('print x = totimespan(true)', duck, {
      code: 'QUERY_UNSUPPORTED',
      message:
        'totimespan() of a bool is not supported: its page converts text, and no Kusto page says what a bool converts to',
      position: '1:22',
    });
  });
});

describe('an argument that must be a constant, given a column of the right type', () => {
  it.each([
    [`${ROW} | extend x = extract("(a)", l, s)`, 'extract("(a)", l', 'captureGroup', 'integer'],
    [`${ROW} | extend x = extract(s, 1, s)`, 'extract(s', 'regex', 'string'],
    [`${ROW} | summarize x = make_bag(y, l)`, 'make_bag(y, l', 'maxSize', 'integer'],
    [
      `${ROW} | extend x = series_fill_forward(y, r)`,
      'series_fill_forward(y, r',
      'missing_value_placeholder',
      'number',
    ],
  ])('%s says the value is written into the SQL', (query, callUpToArgument, param, type) => {
    // Act, Assess: the message names the reason, not the type the column already has, at the
    // argument (each a one-letter column, the last character of callUpToArgument).
    const fn = callUpToArgument.slice(0, callUpToArgument.indexOf('('));
    expectRefusedAt(query, duck, {
      code: 'QUERY_SEMANTIC',
      message: `${fn}(): argument '${param}' must be a constant ${type} (a literal): its value is written into the SQL when the query is compiled`,
      position: `1:${query.indexOf(callUpToArgument) + callUpToArgument.length}`,
    });
  });

  it('still names the type when the constant has the wrong one', () => {
    // Act, Assess
    expectRefusedAt('print x = extract("(a)", 1.5, "a")', duck, {
      code: 'QUERY_SEMANTIC',
      message: "extract(): argument 'captureGroup' must be an integer constant, got real",
      position: '1:26',
    });
  });
});

describe('functions Kusto.Language knows that no page defines: refused at the name with the reason', () => {
  it.each([
    ['print r = row_rank(1)', 'row_rank_dense()'],
    ['print r = rowstore_ordinal_range()', 'no row store'],
    ['print r = __hash_djb2("a")', "internal helper of Kusto's"],
    ['print r = __hash_xxh64("a")', 'hash_xxhash64() is supported'],
    ['print r = __hll_normalize(dynamic(null), 1)', 'hll_merge()'],
    ['print r = __geo_polygon_validate(dynamic(null))', 'no Kusto documentation page defines it'],
  ])('%s', (query, reason) => {
    // Act, Assess
    expectFunctionRefused(query, duck, reason);
  });
});

describe('arguments now read as their pages (or their sibling functions) read them', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('format_ipv4_mask() masks an address held in a dynamic value, as format_ipv4() does', async () => {
    // Act
    const rows = await rowsOf(
      db,
      `print a = format_ipv4_mask(dynamic("192.168.1.255"), 24), b = format_ipv4_mask(parse_json('{"ip":"10.1.2.3"}').ip, 8), c = format_ipv4_mask(dynamic(null), 24), d = format_ipv4_mask(dynamic([1]), 24)`,
    );
    // Assess: an address, a JSON field, null and an array (no address: "").
    expect(rows).toEqual([['192.168.1.0/24', '10.0.0.0/8', '', '']]);
  });

  it('indexof_regex() searches a dynamic value as its text, as indexof() does', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = indexof_regex(dynamic("abcabc"), "c"), b = indexof_regex(dynamic(["abc"]), "c"), c = indexof(dynamic(["abc"]), "c"), d = indexof_regex(dynamic(null), "c"), e = indexof(dynamic(null), "c")',
    );
    // Assess: the array's text is ["abc"], whose c is at 4; null is the empty text.
    expect(rows).toEqual([[2, 4, 4, -1, -1]]);
  });

  it("dynamic_to_json() of a value of another type is its tostring(), the page's first rule", async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = dynamic_to_json("x"), b = dynamic_to_json(12), c = dynamic_to_json(1h), d = dynamic_to_json(long(null)), e = dynamic_to_json(dynamic({"b":1,"a":[2]}))',
    );
    // Assess: tostring's text (null is ""); a dynamic value keeps its canonical JSON.
    expect(rows).toEqual([['x', '12', '01:00:00', '', '{"a":[2],"b":1}']]);
  });

  it('format_ipv4_mask() of a dynamic value compiles on Timestream too (indexof_regex() is DuckDB-only)', () => {
    // Act
    const compiled = compile('print a = format_ipv4_mask(dynamic("10.1.2.3"), 8)', ts);
    // Assess
    expect(compiled.columns).toEqual([{ name: 'a', type: 'string' }]);
  });
});
