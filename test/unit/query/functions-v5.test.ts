// The v5 functions (lib/query/catalog/functions-v5*.ts): argument errors at their position, result
// types, the Timestream forms or refusals, and the size of dynamic_to_json's SQL. Their results on
// DuckDB are pinned by the conformance corpus (test/conformance/cases/fn-v5-*.json).
import { describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { parseJsonPath } from '../../../lib/query/catalog/functions-v5-json';
import { DuckDbDialect } from '../../../lib/query/sql/duckdb';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

describe('v5 functions: argument errors', () => {
  it.each([
    ['print j = extract_json("$.a", "{}", "long")', 'QUERY_SEMANTIC', 'third argument must be typeof(T)', '1:37'],
    ['print j = extract_json("a", "{}")', 'QUERY_SEMANTIC', "'a' is not a JSONPath", '1:24'],
    [
      'print s = "$.a" | project j = extract_json(s, "{}")',
      'QUERY_SEMANTIC',
      'must be a constant string (a literal)',
      '1:44',
    ],
    ['print j = extract_json("$.a[x]", "{}")', 'QUERY_SEMANTIC', 'neither a quoted name nor an index', '1:24'],
    ['print j = extract_json("$.a[1", "{}")', 'QUERY_SEMANTIC', 'an unclosed [', '1:24'],
    ['print b = bag_remove_keys(dynamic({}), dynamic(["$"]))', 'QUERY_SEMANTIC', 'must name a key', '1:40'],
    [
      'print b = bag_remove_keys(dynamic({}), dynamic(["$.a[0]"]))',
      'QUERY_SEMANTIC',
      'array indexes are not supported',
      '1:40',
    ],
    ['print b = bag_set_key(dynamic({}), "$.a..b", 1)', 'QUERY_SEMANTIC', 'an empty name', '1:36'],
    [
      'print k = "a" | project b = bag_set_key(dynamic({}), k, 1)',
      'QUERY_SEMANTIC',
      'must be a constant string (a literal)',
      '1:54',
    ],
    [
      'print r = replace_strings("a", "a", dynamic(["b"]))',
      'QUERY_SEMANTIC',
      "argument 'lookups' must be a dynamic",
      '1:32',
    ],
    ['print f = series_fit_line_dynamic("1,2")', 'QUERY_SEMANTIC', "argument 'series' must be a dynamic", '1:35'],
    [
      'print y = dynamic([1]) | extend (a, b, c, d, e, f, g) = series_fit_line(y)',
      'QUERY_SEMANTIC',
      'gives 6 columns, but 7 names',
      '1:33',
    ],
    ['print y = dynamic([1]) | extend f = series_stats(y)', 'QUERY_UNSUPPORTED', 'cannot be named with Name =', '1:33'],
    ['print i = ipv4_is_in_any_range("1.2.3.4")', 'QUERY_SEMANTIC', 'ipv4_is_in_any_range() takes', '1:11'],
    ['print i = ipv6_compare("::1", "::2", "8")', 'QUERY_SEMANTIC', "argument 'prefix' must be an integer", '1:38'],
    ['print i = parse_ipv6_mask("::1")', 'QUERY_SEMANTIC', 'parse_ipv6_mask() takes', '1:11'],
    [
      'print t = datetime_local_to_utc("2020-01-01", "UTC")',
      'QUERY_SEMANTIC',
      "argument 'from' must be a datetime",
      '1:33',
    ],
    [
      'datatable(b:dynamic, p:bool)[] | summarize make_bag_if(b, p, 10, 1)',
      'QUERY_SEMANTIC',
      'make_bag_if() takes',
      '1:44',
    ],
    ['datatable(b:dynamic)[] | summarize make_bag(b, 0)', 'QUERY_SEMANTIC', 'between 1 and 1048576', '1:48'],
    ['datatable(b:dynamic)[] | summarize make_bag(b, -1)', 'QUERY_SEMANTIC', 'between 1 and 1048576', '1:48'],
    [
      'datatable(b:dynamic, p:bool)[] | summarize make_bag_if(b, p, 1048577)',
      'QUERY_SEMANTIC',
      'between 1 and 1048576',
      '1:62',
    ],
    [
      'datatable(x:long, p:bool)[] | summarize make_list_if(x, p, 0)',
      'QUERY_SEMANTIC',
      'between 1 and 1048576',
      '1:60',
    ],
    ['datatable(x:long)[] | summarize make_set(x, 1048577)', 'QUERY_SEMANTIC', 'between 1 and 1048576', '1:45'],
  ])('refuses %s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });
});

describe('v5 functions: JSONPath parsing', () => {
  it.each([
    ['$', false, []],
    ['$.a.b', false, ['a', 'b']],
    ["$['a.b'][2].c", false, ['a.b', 2, 'c']],
    ['$["x y"]', false, ['x y']],
    ['key1', true, ['key1']],
  ])('reads %s', (text, bare, path) => {
    // Act
    const parsed = parseJsonPath(text, bare);
    // Assess
    expect(parsed).toEqual(path);
  });
});

describe('v5 functions: engines', () => {
  it('writes extract_json, replace_strings, base64_encode_fromguid and count_distinct for Timestream without DuckDB-only functions', () => {
    // Act
    const sql = compile(
      'print j = extract_json("$.a[0]", "{}"), r = replace_strings("ab", dynamic(["a"]), dynamic(["b"])), g = base64_encode_fromguid(toguid("ae3133f2-6e22-49ae-b06a-16e6a9b212eb")) | summarize count_distinct(j), count_distinctif(r, true), take_any(g)',
      ts,
    ).sql;
    // Assess
    expect(sql).toContain('replace(');
    expect(sql).toContain('count(DISTINCT');
    expect(sql).toContain('from_hex(');
    expect(sql).not.toMatch(/\b(list_[a-z_]+|to_json|json_type|TRY_CAST|len)\(/);
  });

  it.each([
    ['print b = bag_remove_keys(dynamic({}), dynamic(["a"]))', 'bag_remove_keys'],
    ['print b = bag_set_key(dynamic({}), "a", 1)', 'bag_set_key'],
    ['print f = series_fit_line_dynamic(dynamic([1, 2]))', 'series_fit_line_dynamic'],
    ['print i = ipv4_is_in_any_range("1.2.3.4", "1.2.3.0/24")', 'ipv4_is_in_any_range'],
    ['datatable(b:dynamic, p:bool)[] | summarize make_bag_if(b, p)', 'make_bag_if'],
    ['print h = has_ipv4("a 1.2.3.4", "1.2.3.4")', 'has_ipv4'],
    ['print h = has_any_ipv4_prefix("a 1.2.3.4", dynamic(["1."]))', 'has_any_ipv4_prefix'],
    ['print b = base64_decode_toarray("S3VzdG8=")', 'base64_decode_toarray'],
    ['print p = parse_ipv6("::1")', 'parse_ipv6'],
    ['print c = ipv6_compare("::1", "::2", 120)', 'ipv6_compare'],
    ['print t = datetime_utc_to_local(now(), "Europe/Paris")', 'datetime_utc_to_local'],
    ['print t = treepath(dynamic({"a": 1}))', 'treepath'],
  ])('refuses %s on Timestream naming the function and the engine', (query, fn) => {
    // Act
    const error = compileFailure(query, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain(`${fn}() is not supported on the`);
  });

  it('keeps the SQL of one dynamic_to_json call small and free of lambdas (they made DuckDB bind for seconds)', () => {
    // Act
    const one = compile('print d = dynamic({"a": 1}) | project j = dynamic_to_json(d)', duck).sql;
    const base = compile('print d = dynamic({"a": 1}) | project j = d', duck).sql;
    // Assess: besides the rewrite of the text's reals (a fixed fragment, its lambdas not per level of nesting)
    const text = 'x'.repeat(200);
    const reals = new DuckDbDialect().kustoJsonText(text);
    expect(one.length - base.length - (reals.length - text.length)).toBeLessThan(1500);
    expect(one.split('->').length).toBe(reals.split('->').length);
  });
});
