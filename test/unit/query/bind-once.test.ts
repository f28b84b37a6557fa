// The DuckDB fragments that name a value several times bind a long value once (lib/query/sql/bind-once.ts):
// nested calls grow the SQL linearly, and a plain column keeps the fast form without a lambda.
import { describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { baseOptions } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const nested = (call: (e: string) => string, depth: number): string => {
  let e = 'y';
  for (let i = 0; i < depth; i++) e = call(e);
  return compile(`print y = dynamic([1, 2]) | extend z = ${e}`, duck).sql;
};

describe('bindOnce: values named several times in the DuckDB SQL', () => {
  it.each([
    ['series_add', (e: string) => `series_add(${e}, 1)`],
    ['series_multiply', (e: string) => `series_multiply(${e}, 2)`],
    ['array_concat', (e: string) => `array_concat(${e}, y)`],
    ['array_slice', (e: string) => `array_slice(${e}, 0, 9)`],
    ['array_sort_asc', (e: string) => `array_sort_asc(${e})`],
    ['strcat_array', (e: string) => `split(strcat_array(${e}, ','), ',')`],
  ])('grows the SQL of nested %s calls by the same amount at every level (it doubled)', (_name, call) => {
    // Act
    const sizes = [2, 3, 4, 5, 6].map((depth) => nested(call, depth).length);
    // Assess
    const steps = sizes.slice(1).map((size, i) => size - sizes[i]!);
    expect(Math.max(...steps)).toBe(Math.min(...steps));
  });

  it('keeps todouble() of a column in its fast form, without a lambda', () => {
    // Act
    const sql = compile('States | summarize avg(todouble(Value))', duck).sql;
    // Assess
    expect(sql).toContain('TRY_CAST(CAST("Value" AS VARCHAR) AS DOUBLE)');
    expect(sql).not.toContain('_dv');
  });

  it('evaluates a long argument of todouble() once', () => {
    // Act
    const sql = compile(
      'print y = dynamic([1, 2]) | extend s = todouble(series_fit_line_dynamic(series_add(y, 1)).slope)',
      duck,
    ).sql;
    // Assess
    expect(sql).toContain('_dv -> coalesce(TRY_CAST(CAST(_dv AS VARCHAR) AS DOUBLE)');
  });
});
