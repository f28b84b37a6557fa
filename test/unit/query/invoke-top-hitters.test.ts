// invoke and top-hitters at the compile() level: both engines compile them (they become a function
// call and summarize + top), and their errors at their positions. The documented examples are in the
// conformance corpus (test/conformance/cases/op-invoke-*.json, op-top-hitters-*.json).
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

describe('invoke and top-hitters', () => {
  it.each([
    ['let f = (T:(*)) { T | take 1 }; States | invoke f()', ['Timestamp', 'PlantId']],
    ['States | top-hitters 3 of Name by todouble(Value)', ['Name', 'approximate_sum_Value']],
    ['States | top-hitters 3 of DeviceId by strlen(Name)', ['DeviceId', 'approximate_sum_strlen_Name']],
    ['States | top-hitters 3 of Name by todouble(Value) * 2', ['Name', 'approximate_sum_']],
  ])('compiles %j for Timestream', (query, names) => {
    // Act
    const compiled = compile(query, options('timestream'));
    // Assess
    expect(compiled.columns.map((c) => c.name).slice(0, names.length)).toEqual(names);
  });

  it('passes the pipeline before invoke as the first argument, once', () => {
    // Act
    const compiled = compile(
      'let f = (T:(x:long), k:long) { T | where x > k }; range x from 1 to 5 step 1 | invoke f(3) | count',
      options('duckdb'),
    );
    // Assess
    expect(compiled.columns).toEqual([{ name: 'Count', type: 'long' }]);
    expect(compiled.sql.match(/FROM generate_series\(/g)).toHaveLength(1);
  });

  it.each([
    ['range x from 1 to 3 step 1 | invoke 3', 'QUERY_SYNTAX', "1:37: expected a function call after invoke, found '3'"],
    [
      'let f = (T:(*)) { T }; range x from 1 to 3 step 1 | invoke f',
      'QUERY_SYNTAX',
      "1:60: expected a function call after invoke, found 'f'",
    ],
    [
      'let f = (T:(*), n:long) { T | take n }; range x from 1 to 3 step 1 | invoke f()',
      'QUERY_SEMANTIC',
      "'f' takes 2 arguments, got 1",
    ],
    ['range x from 1 to 3 step 1 | top-hitters 2 of y', 'QUERY_SEMANTIC', "1:47: unknown column 'y'"],
  ])('rejects %j', (query, code, message) => {
    // Act
    const error = compileFailure(query, options('duckdb'));
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});
