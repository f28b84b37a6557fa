// The v6 series functions (lib/query/catalog/functions-v6-series*.ts): argument errors at their
// position, the columns series_fft / series_fit_poly give, the Timestream refusals, and that each
// column computes only its own field. Their results on DuckDB are pinned by the conformance corpus
// (test/conformance/cases/fn-v6-series-*.json).
import { describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

describe('v6 series functions: argument errors', () => {
  it.each([
    ['print s = series_seasonal(dynamic([1, 2]))', 'QUERY_SEMANTIC', 'needs series_periods_detect', '1:27'],
    ['print s = series_seasonal(dynamic([1, 2]), -1)', 'QUERY_SEMANTIC', 'needs series_periods_detect', '1:44'],
    [
      'print s = series_seasonal(dynamic([1, 2]), 2.5)',
      'QUERY_SEMANTIC',
      "argument 'period' must be an integer constant",
      '1:44',
    ],
    [
      'print p = 2 | project s = series_seasonal(dynamic([1, 2]), p)',
      'QUERY_SEMANTIC',
      "argument 'period' must be a constant integer (a literal)",
      '1:60',
    ],
    ['print s = series_seasonal("1,2", 2)', 'QUERY_SEMANTIC', "argument 'series' must be a dynamic", '1:27'],
    ['print y = dynamic([1]) | extend f = series_fft(y)', 'QUERY_UNSUPPORTED', 'cannot be named with Name =', '1:33'],
    [
      'print y = dynamic([1]) | extend (a, b, c) = series_ifft(y)',
      'QUERY_SEMANTIC',
      'gives 2 columns, but 3 names',
      '1:33',
    ],
    ['print y = dynamic([1]) | extend n = array_length(series_fft(y))', 'QUERY_SEMANTIC', 'series_fft() takes', '1:50'],
    [
      'print y = dynamic([1]) | extend series_fft(y, "1")',
      'QUERY_SEMANTIC',
      "argument 'imaginary' must be a dynamic",
      '1:47',
    ],
    // The part (and series_fit_poly's field) is the compiler's own last argument: one more is too many.
    ['print y = dynamic([1]) | extend series_fft(y, y, "real")', 'QUERY_SEMANTIC', 'series_fft() takes', '1:33'],
    ['print y = dynamic([1]) | extend series_fit_poly(y, dynamic(null), 0)', 'QUERY_SEMANTIC', 'from 1 to 16', '1:67'],
    ['print y = dynamic([1]) | extend series_fit_poly(y, dynamic(null), 17)', 'QUERY_SEMANTIC', 'from 1 to 16', '1:67'],
    [
      'print y = dynamic([1]), d = 2 | extend series_fit_poly(y, dynamic(null), d)',
      'QUERY_SEMANTIC',
      "argument 'degree' must be a constant integer (a literal)",
      '1:74',
    ],
    [
      'print y = dynamic([1]) | extend series_fit_poly(y, dynamic(null), 2, "rsquare")',
      'QUERY_SEMANTIC',
      'series_fit_poly() takes',
      '1:33',
    ],
    [
      'print y = dynamic([1]) | extend (a, b, c, d, e, f) = series_fit_poly(y)',
      'QUERY_SEMANTIC',
      'gives 5 columns, but 6',
      '1:33',
    ],
  ])('refuses %s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });
});

describe('v6 series functions: columns', () => {
  it('names the columns of series_fft, series_ifft and series_fit_poly as Kusto does, typed', () => {
    // Act
    const columns = compile(
      'print y = dynamic([1, 2]), x = dynamic([1, 2]) | extend series_fft(y), series_ifft(y, x), series_fit_poly(y, x, 1)',
      duck,
    ).columns;
    // Assess
    expect(columns.slice(2)).toEqual([
      { name: 'series_fft_y_real', type: 'dynamic' },
      { name: 'series_fft_y_imag', type: 'dynamic' },
      { name: 'series_ifft_y_real', type: 'dynamic' },
      { name: 'series_ifft_y_imag', type: 'dynamic' },
      { name: 'series_fit_poly_y_rsquare', type: 'real' },
      { name: 'series_fit_poly_y_coefficients', type: 'dynamic' },
      { name: 'series_fit_poly_y_variance', type: 'real' },
      { name: 'series_fit_poly_y_rvariance', type: 'real' },
      { name: 'series_fit_poly_y_poly_fit', type: 'dynamic' },
    ]);
  });

  it('keeps every column when fewer names are given, the unnamed under their default names, as Kusto.Language does', () => {
    // Act
    const columns = compile('print y = dynamic([1, 2]) | extend (rs, co) = series_fit_poly(y)', duck).columns;
    // Assess
    expect(columns.map((c) => c.name)).toEqual([
      'y',
      'rs',
      'co',
      'series_fit_poly_y_variance',
      'series_fit_poly_y_rvariance',
      'series_fit_poly_y_poly_fit',
    ]);
  });

  it('computes each column of series_fit_poly on its own: the variance column solves nothing', () => {
    // Act
    const sql = compile('print y = dynamic([1, 2]) | project (r, c, v, rv, pf) = series_fit_poly(y)', duck).sql;
    // Assess: the four columns but the variance solve the normal equations (list_reduce).
    expect(sql.match(/list_reduce\(/g)).toHaveLength(4);
  });
});

describe('v6 series functions: engines', () => {
  it.each([
    ['print y = dynamic([1]) | extend series_fft(y)', 'series_fft'],
    ['print y = dynamic([1]) | extend (re, im) = series_ifft(y, y)', 'series_ifft'],
    ['print y = dynamic([1]) | extend (rs, co) = series_fit_poly(y)', 'series_fit_poly'],
    ['print s = series_seasonal(dynamic([1, 2]), 2)', 'series_seasonal'],
  ])('refuses %s on Timestream naming the function and the engine', (query, fn) => {
    // Act
    const error = compileFailure(query, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain(`${fn}() is not supported on the`);
  });
});
