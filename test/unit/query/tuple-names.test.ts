// The `(a, b, ...) = f(...)` naming form at the compile() level: which columns the names land on,
// where it is refused and at which position. Results of documented examples are in the conformance
// corpus (test/conformance/cases/fn-*-tuple-*.json, fn-percentiles-named.json).
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

const failure = (query: string) => compileFailure(query, options('duckdb'));

describe('(a, b, ...) = naming', () => {
  it.each([
    [
      'range x from 1 to 9 step 1 | summarize c = count(), (lo, hi) = percentiles(x, 10, 90) by k = x % 2',
      ['k', 'c', 'lo', 'hi'],
    ],
    ['States | summarize (t, v, n) = arg_max(Timestamp, Value, Name) by DeviceId', ['DeviceId', 't', 'v', 'n']],
    ['States | summarize (t, d) = arg_min(Timestamp, DeviceId)', ['t', 'd']],
    // Name = names the first percentile only, as Kusto.Language does (functions library: p50=percentiles(_val, 50)).
    ['range x from 1 to 9 step 1 | summarize p = percentiles(x, 50, 90)', ['p', 'percentile_x_90']],
    ['range x from 1 to 9 step 1 | summarize p50 = percentiles(x, 50) by k = x % 2', ['k', 'p50']],
    ['print s = dynamic([1, 2]) | project (a, b, c) = series_stats(s)', ['a', 'b', 'c']],
    ['print s = dynamic([1, 2]) | extend (lo, lo_at) = series_stats(s), n = 1', ['s', 'lo', 'lo_at', 'n']],
    // One name in parentheses, as Kusto.Language reads it: the first column of a function that gives
    // several, the one column of anything else; `(x) == 1` stays an expression.
    ['print s = dynamic([1, 2]) | extend (lo) = series_stats(s)', ['s', 'lo']],
    ['range x from 1 to 2 step 1 | extend (z) = x * 2, y = (x) + 1', ['x', 'z', 'y']],
    ['range x from 1 to 2 step 1 | extend (x) == 1', ['x', 'Column1']],
    ['range x from 1 to 2 step 1 | summarize (m) = max(x)', ['m']],
    // Fewer names than an aggregation's columns name the first ones (Kusto.Language); bracketed names too.
    ['States | summarize (t) = arg_max(Timestamp, DeviceId)', ['t', 'DeviceId']],
    [
      "range x from 1 to 9 step 1 | summarize (['p 50'], b) = percentiles(x, 50, 90, 95)",
      ['p 50', 'b', 'percentile_x_95'],
    ],
    // Name = as (Name) = for the fits, which keep their other columns (Kusto.Language; schemafuzz S3).
    [
      'print y = dynamic([1, 2, 4]) | extend f = series_fit_line(y)',
      ['y', 'f', 'series_fit_line_y_slope', 'series_fit_line_y_variance', 'series_fit_line_y_rvariance'].concat([
        'series_fit_line_y_interception',
        'series_fit_line_y_line_fit',
      ]),
    ],
    [
      'print y = dynamic([1, 2, 4]) | project f = series_fit_poly(y, dynamic(null), 1)',
      ['f', 'series_fit_poly_y_coefficients', 'series_fit_poly_y_variance', 'series_fit_poly_y_rvariance'].concat([
        'series_fit_poly_y_poly_fit',
      ]),
    ],
  ])('%s gives the columns %j on both engines', (query, names) => {
    for (const dialect of ['duckdb', 'timestream'] as const) {
      if (dialect === 'timestream' && query.includes('series_')) continue;
      // Act
      const compiled = compile(query, options(dialect));
      // Assess
      expect(compiled.columns.map((c) => c.name)).toEqual(names);
    }
  });

  it.each([
    ['States | summarize (a, b) = count()', 'QUERY_SEMANTIC', '1:20:', 'count() gives 1 column here, but 2 names'],
    [
      'States | summarize (a, a) = percentiles(todouble(Value), 1, 2)',
      'QUERY_SEMANTIC',
      '1:24:',
      "duplicate column name 'a'",
    ],
    ['States | summarize (a, b) = count() * 2', 'QUERY_SEMANTIC', '1:20:', 'names the columns of one aggregation'],
    ['States | summarize count() by (a, b) = DeviceId', 'QUERY_UNSUPPORTED', '1:31:', 'not supported here'],
    ['States | extend (a, b) = strlen(Name)', 'QUERY_SEMANTIC', '1:17:', 'such as series_stats()'],
    ['States | where (a, b) = 1', 'QUERY_SYNTAX', '1:', ''],
    ['print s = dynamic([1]) | extend (a, b', 'QUERY_SYNTAX', '1:38:', "expected ')'"],
    ['print s = dynamic([1]) | extend (a, b) series_stats(s)', 'QUERY_SYNTAX', '1:40:', "expected '='"],
  ])('%s is refused with %s at %s', (query, code, position, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message.startsWith(position)).toBe(true);
    expect(error.message).toContain(message);
  });
});
