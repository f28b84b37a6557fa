// The v7 functions (lib/query/catalog/functions-v7-*.ts): argument errors at their position and the
// Timestream refusals. Their results on DuckDB are pinned by the conformance corpus
// (test/conformance/cases/fn-v7-*.json).
import { describe, expect, it } from 'vitest';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

describe('v7 functions: argument errors', () => {
  it.each([
    ['print r = beta_cdf("0.5", 2, 3)', 'QUERY_SEMANTIC', "argument 'x' must be a", '1:20'],
    ['print r = beta_pdf(0.5, now(), 3)', 'QUERY_SEMANTIC', "argument 'alpha' must be a", '1:25'],
    ['print r = beta_inv(0.5, 2, "3")', 'QUERY_SEMANTIC', "argument 'beta' must be a", '1:28'],
    [
      'print r = beta_inv(0.5, 2)',
      'QUERY_SEMANTIC',
      'beta_inv() takes (probability: number, alpha: number, beta: number); got (real, long)',
      '1:11',
    ],
    ['print r = welch_test(1, 2, 3, 4, 5, "6")', 'QUERY_SEMANTIC', "argument 'count2' must be a", '1:37'],
    [
      'print r = ipv4_range_to_cidr_list("1.1.1.1", 5)',
      'QUERY_SEMANTIC',
      "argument 'EndAddress' must be a string",
      '1:46',
    ],
  ])('refuses %s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });
});

describe('v7 functions: Timestream refusals', () => {
  it.each([
    ['print r = beta_cdf(0.5, 2, 3)', 'beta_cdf'],
    ['print r = beta_inv(0.5, 2, 3)', 'beta_inv'],
    ['print r = beta_pdf(0.5, 2, 3)', 'beta_pdf'],
    ['print r = welch_test(1, 2, 3, 4, 5, 6)', 'welch_test'],
    ['print r = ipv4_range_to_cidr_list("1.1.128.0", "1.1.140.255")', 'ipv4_range_to_cidr_list'],
  ])('refuses %s on Timestream naming the function and the engine', (query, fn) => {
    // Act
    const error = compileFailure(query, ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain(`${fn}() is not supported on the Timestream engine`);
  });
});
