// Arithmetic of literals folded at compile time (lib/query/constant-fold.ts): `24 * 7` is accepted
// where Kusto takes a constant, with the value and type the engines give, and what is not folded
// (division, modulo, an overflow, an infinite real, a column) still reaches the SQL; a timespan
// constant finer than a microsecond is folded so that the analyzer refuses it.
import { describe, expect, it } from 'vitest';
import { foldArithmetic } from '../../../lib/query/constant-fold';
import { compile, type CompileOptions } from '../../../lib/query/index';
import type { IrExpr } from '../../../lib/query/ir';
import { baseOptions } from './compile-failure';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...baseOptions, dialect });
const long = (value: bigint): IrExpr => ({ kind: 'lit', type: 'long', value });
const real = (value: number): IrExpr => ({ kind: 'lit', type: 'real', value });

describe('foldArithmetic', () => {
  it('folds + - * of longs in 64 bits and of reals as doubles', () => {
    expect(foldArithmetic('*', long(24n), long(7n), 'long')).toEqual(long(168n));
    expect(foldArithmetic('-', long(3n), long(5n), 'long')).toEqual(long(-2n));
    expect(foldArithmetic('+', { kind: 'lit', type: 'int', value: 2 }, long(1n), 'long')).toEqual(long(3n));
    expect(foldArithmetic('*', real(2.5), long(2n), 'real')).toEqual(real(5));
  });

  it('leaves division, modulo, overflow, infinity and null to the engine', () => {
    expect(foldArithmetic('/', long(7n), long(2n), 'long')).toBeUndefined();
    expect(foldArithmetic('%', long(-7n), long(3n), 'long')).toBeUndefined();
    expect(foldArithmetic('+', long(2n ** 63n - 1n), long(1n), 'long')).toBeUndefined();
    expect(foldArithmetic('*', long(-(2n ** 62n)), long(2n), 'long')).toEqual(long(-(2n ** 63n)));
    expect(foldArithmetic('*', real(1e308), long(10n), 'real')).toBeUndefined();
    expect(foldArithmetic('+', { kind: 'lit', type: 'long', value: null }, long(1n), 'long')).toBeUndefined();
  });
});

describe('foldArithmetic on timespans', () => {
  const span = (ticks: bigint): IrExpr => ({ kind: 'lit', type: 'timespan', value: ticks });
  const minute = 600_000_000n;

  it('folds + - of two and * / by a number when the result is whole microseconds', () => {
    expect(foldArithmetic('/', span(minute), real(2), 'timespan')).toEqual(span(minute / 2n));
    expect(foldArithmetic('/', span(minute), long(2n), 'timespan')).toEqual(span(minute / 2n));
    expect(foldArithmetic('*', span(minute), real(1.5), 'timespan')).toEqual(span((minute * 3n) / 2n));
    expect(foldArithmetic('-', span(60n * minute), span(30n * minute), 'timespan')).toEqual(span(30n * minute));
  });

  it('leaves a zero divisor and a result beyond 64 bits to the engine', () => {
    expect(foldArithmetic('/', span(minute), long(0n), 'timespan')).toBeUndefined();
    expect(foldArithmetic('/', span(minute), real(0), 'timespan')).toBeUndefined();
    expect(foldArithmetic('*', span(minute), long(2n ** 62n), 'timespan')).toBeUndefined();
  });

  it('folds an exact result finer than a microsecond into its ticks, which the analyzer refuses unless folded further', () => {
    // 1microsecond / 2 is 5 ticks in Kusto; the engine would cut it to 0 (a wrong answer).
    expect(foldArithmetic('/', span(10n), long(2n), 'timespan')).toEqual(span(5n));
    expect(() => compile('print 1microsecond / 2', options('duckdb'))).toThrow(/needs 100-nanosecond precision/);
    expect(compile('print (1microsecond / 2) * 2', options('duckdb')).sql).not.toMatch(/\/ 2/);
  });

  it('folds an inexact quotient or product to its nearest tick, ties to even', () => {
    // 1d / 7 is 123428571428.57 ticks; 1s / 3.0 is 3333333.33; 1d * 0.1 is 86400000000.00002 as doubles.
    expect(foldArithmetic('/', span(864_000_000_000n), long(7n), 'timespan')).toEqual(span(123_428_571_429n));
    expect(foldArithmetic('/', span(-20_000_000n), long(3n), 'timespan')).toEqual(span(-6_666_667n));
    expect(foldArithmetic('/', span(10_000_000n), real(3), 'timespan')).toEqual(span(3_333_333n));
    expect(foldArithmetic('*', span(864_000_000_000n), real(0.1), 'timespan')).toEqual(span(86_400_000_000n));
    expect(foldArithmetic('/', span(25n), long(2n), 'timespan')).toEqual(span(12n));
    expect(foldArithmetic('/', span(15n), long(-2n), 'timespan')).toEqual(span(-8n));
  });

  it('refuses a constant quotient finer than a microsecond instead of letting the engine cut it', () => {
    // Before, `print 1s / 3` answered 00:00:00.3333330 where Kusto gives 00:00:00.3333333.
    expect(() => compile('print 1s / 3', options('duckdb'))).toThrow(/needs 100-nanosecond precision/);
    expect(() => compile('print 1d / 7.0', options('duckdb'))).toThrow(/needs 100-nanosecond precision/);
    expect(() => compile('let c = 1ms; print c / 3', options('duckdb'))).toThrow(/needs 100-nanosecond precision/);
    // Folded on into a ratio, the exact tick count is kept: 3333333, not the engine's 3333330.
    expect(compile('print 1s / 3 / 1tick', options('duckdb')).sql).toMatch(/3333333/);
    expect(compile('print 1d * 0.1', options('duckdb')).sql).toMatch(/8640000000\b/);
  });

  it("takes a let-bound half window as bin()'s size (time window join page's lookupBin)", () => {
    // Act
    const compiled = compile(
      'let lookupWindow = 1min; let lookupBin = lookupWindow / 2.0; States | summarize count() by bin(Timestamp, lookupBin)',
      options('duckdb'),
    );
    // Assess
    expect(compiled.columns.map((c) => `${c.name}:${c.type}`)).toEqual(['Timestamp:datetime', 'count_:long']);
  });
});

describe('constants written as expressions', () => {
  it('takes 25 * 2 as a percentile, named with an empty label as Kusto.Language names it', () => {
    // Act
    const compiled = compile(
      'States | summarize percentile(Timestamp, 25 * 2), percentiles(Timestamp, 10 + 40, 90)',
      options('duckdb'),
    );
    // Assess
    // (Kusto.Language gives these three names for this query.)
    expect(compiled.columns.map((c) => c.name)).toEqual([
      'percentile_Timestamp_',
      'percentile_Timestamp_1',
      'percentile_Timestamp_90',
    ]);
  });

  it('takes 24 * 7 as series_decompose period on DuckDB', () => {
    const compiled = compile('print y = dynamic([1, 2, 3]) | extend series_decompose(y, 24 * 7)', options('duckdb'));
    expect(compiled.columns.map((c) => c.name)).toContain('series_decompose_y_seasonal');
  });

  it('keeps an overflowing sum in the SQL, where the engine reports it', () => {
    const compiled = compile('print 9223372036854775807 + 1', options('duckdb'));
    expect(compiled.sql).toContain('9223372036854775807');
  });
});
