// The v4 functions (lib/query/catalog/functions-v4*.ts): argument errors at their position, result
// types, and the Timestream forms (SQL text: no Timestream engine runs here) or refusals. Their
// results on DuckDB are pinned by the conformance corpus (test/conformance/cases/fn-v4-*.json).
import { describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };
const columnTypes = (query: string): string[] => compile(query, duck).columns.map((c) => c.type);

describe('v4 functions: argument errors', () => {
  it.each([
    ['print r = range(1, "a")', 'QUERY_SEMANTIC', 'range() takes', '1:11'],
    ['print r = range(datetime(2020-01-01), datetime(2020-01-02), 2)', 'QUERY_SEMANTIC', 'range() takes', '1:11'],
    ['print p = parse_version(1)', 'QUERY_SEMANTIC', "argument 'version' must be a string", '1:25'],
    ['print a = 1 | extend p = pack_all(true, false)', 'QUERY_SEMANTIC', 'pack_all() takes 0 to 1 arguments', '1:26'],
    ['print a = 1 | extend p = pack_all(a > 0)', 'QUERY_SEMANTIC', 'must be a constant bool', '1:35'],
    ['print a = 1 | extend p = bag_pack_columns()', 'QUERY_SEMANTIC', 'at least one column', '1:26'],
    ['print a = 1 | extend p = bag_pack_columns(a, "b")', 'QUERY_SEMANTIC', 'must be a column name', '1:46'],
    ['print s = "x" | summarize binary_all_or(s)', 'QUERY_SEMANTIC', "argument 'expr' must be an integer", '1:41'],
    ['print s = "x" | summarize tdigest(s)', 'QUERY_SEMANTIC', 'tdigest() needs a number', '1:35'],
    [
      'range x from 1 to 3 step 1 | summarize t = tdigest(x) | project percentile_tdigest(t, 101)',
      'QUERY_SEMANTIC',
      'between 0 and 100',
      '1:87',
    ],
    [
      'range x from 1 to 3 step 1 | summarize t = tdigest(x) | project percentile_tdigest(t, 50, typeof(x, y))',
      'QUERY_SEMANTIC',
      'typeof() needs one type name',
      '1:91',
    ],
    ['print h = dynamic([]) | project hll_merge(h)', 'QUERY_SEMANTIC', 'hll_merge() takes', '1:33'],
    ['print h = dynamic([1]) | project dcount_hll(h, 2)', 'QUERY_SEMANTIC', 'dcount_hll() takes', '1:34'],
    ['print s = dynamic([1]) | project series_iir(s, dynamic([1]))', 'QUERY_SEMANTIC', 'series_iir() takes', '1:34'],
    ['print p = series_pow(2, 3)', 'QUERY_SEMANTIC', 'expects at least one dynamic array', '1:22'],
    ['print p = series_dot_product(1, 2)', 'QUERY_SEMANTIC', 'expects at least one dynamic array', '1:30'],
    [
      'print s = dynamic([1]) | project series_fir(s, dynamic([1]), 1)',
      'QUERY_SEMANTIC',
      "argument 'normalize' must be a bool",
      '1:62',
    ],
  ])('%s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });

  it('refuses an aggregation-only sketch function outside summarize, but takes its scalar form', () => {
    // Act
    const error = compileFailure('print x = 1 | extend t = tdigest(x)', duck);
    const merged = compile('print h = dynamic([1]) | project m = tdigest_merge(h, h)', duck);
    // Assess
    expect(error.message).toContain("the aggregation function 'tdigest' can only be used in summarize");
    expect(merged.columns).toEqual([{ name: 'm', type: 'dynamic' }]);
  });
});

describe('v4 functions: result types', () => {
  it('gives percentile_tdigest the type typeof() names, dynamic without it', () => {
    // Act
    const types = columnTypes(
      'range x from 1 to 3 step 1 | summarize t = tdigest(x) | project percentile_tdigest(t, 50), percentile_tdigest(t, 50, typeof(long)), percentile_tdigest(t, 50, typeof(datetime))',
    );
    // Assess
    expect(types).toEqual(['dynamic', 'long', 'datetime']);
  });

  it('names binary_all_* as their argument (binary_all_or(num) -> num, as Kusto.Language) and the sketches after it, and types binary_all_* of an int as int', () => {
    // Act
    const compiled = compile(
      'datatable(i:int, x:long)[1, 2] | summarize binary_all_and(i), binary_all_xor(x), hll(x), tdigest(x)',
      duck,
    );
    // Assess
    expect(compiled.columns).toEqual([
      { name: 'i', type: 'int' },
      { name: 'x', type: 'long' },
      { name: 'hll_x', type: 'dynamic' },
      { name: 'tdigest_x', type: 'dynamic' },
    ]);
  });

  it('types parse_version as decimal and keeps it exact in SQL', () => {
    // Act
    const compiled = compile('print v = parse_version("1.2.3.4")', duck);
    // Assess
    expect(compiled.columns).toEqual([{ name: 'v', type: 'decimal' }]);
    expect(compiled.sql).toContain('AS DECIMAL(38, 0)');
  });
});

describe('v4 functions: Timestream', () => {
  it.each([
    ['print r = range(1, 8, 3)', ['sequence(0, (', 'array_join(']],
    ['print r = range(datetime(2020-01-01), datetime(2020-01-02), 1h)', ['date_format(', "'0Z\"'"]],
    ['print b = to_utf8("é")', ['codepoint(CAST(ch AS VARCHAR(1)))', 'transform(regexp_extract_all(']],
    ['print v = parse_version("1.2")', ['regexp_like(', 'cardinality(split(', 'AS DECIMAL(38, 0)']],
    ['print a = 1, b = "" | project p = pack_all(true)', ["concat_ws(','", "NOT IN ('null', '\"\"')"]],
    [
      'datatable(x:long)[1, 2] | summarize binary_all_or(x), binary_all_and(x)',
      ['bitwise_or_agg(', 'bitwise_and_agg('],
    ],
    [
      'datatable(x:long)[1, 2] | summarize t = tdigest(x) | project percentile_tdigest(t, 50, typeof(long))',
      ['array_sort(array_agg(', 'element_at('],
    ],
    ['datatable(x:long)[1, 2] | summarize h = hll(x) | project dcount_hll(h)', ['json_array_length(']],
    ['print s = array_split(dynamic([1, 2, 3]), dynamic([1]))', ['sequence(1, cardinality(concat(ARRAY[0]', 'slice(']],
    ['print n = ipv4_netmask_suffix("10.0.0.1/8")', ['regexp_like(', 'split_part(']],
    // Each key once (array_distinct), with its last pair's value (element_at(..., -1)).
    [
      'print q = parse_urlquery("a=1&b=2")',
      ["'{\"Query Parameters\":' || '{' || array_join(", 'array_distinct(', '-1)'],
    ],
    ['print c = parse_csv("a,b")', ['regexp_extract_all(', 'array_position(', 'slice(']],
    ['print p = parse_path("C:/a/b.txt")', ['regexp_extract(', '\'"Filename":\'', 'json_format(']],
  ])('%s', (query, fragments) => {
    // Act
    const sql = compile(query, ts).sql;
    // Assess
    for (const f of fragments) expect(sql).toContain(f);
    expect(sql).not.toMatch(/\b(list_[a-z_]+|to_json|json_type|TRY_CAST|len)\(/);
  });

  it.each([
    ['datatable(x:long)[1, 2] | summarize binary_all_xor(x)', 'binary_all_xor'],
    ['print s = dynamic([1, 2]) | project series_fir(s, dynamic([1, 1]))', 'series_fir'],
    ['print s = dynamic([1, 2]) | project series_iir(s, dynamic([1]), dynamic([1, -1]))', 'series_iir'],
    ['print s = dynamic([1, 2]) | project series_sum(s)', 'series_sum'],
    ['print s = dynamic([true]) | project array_iif(s, 1, 0)', 'array_iff'],
    ['print s = dynamic({"b": 1}) | project dynamic_to_json(s)', 'dynamic_to_json'],
    ['print i = has_any_index("a b", dynamic(["b"]))', 'has_any_index'],
    ['print g = gamma(5)', 'gamma'],
  ])('refuses %s naming the function and the engine', (query, fn) => {
    // Act
    const error = compileFailure(query, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain(`${fn}() is not supported on the`);
  });
});
