// Arithmetic of two literals folded into one literal, so that `24 * 7`, `100 - 5` or `2.5 * 2` are
// accepted where Kusto takes a constant (percentile(), series_decompose's period, maxSize), as
// Kusto.Language accepts them. Only + - * on int, long and real, with the value the engines would
// compute: integers in 64 bits (an overflow is left to the engine, which reports it as before) and
// reals as doubles (an infinite result is left to the engine too). Division and modulo are not
// folded: their rules for zero and for signs stay in one place, the SQL. Timespans too (a bin size
// such as the time-window join page's `let lookupBin = lookupWindow / 2.0`): + - of two, * or / by
// a number, in ticks; a result that is no whole number of microseconds is refused by the analyzer
// (docs/query-api.md, "Precision"), so `1s / 3` is refused rather than cut to 0.333333 by the engine.
import type { IrExpr, KqlType } from './ir';

const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;

export type FoldedOp = '+' | '-' | '*' | '/' | '%';

const integral = (t: KqlType): boolean => t === 'int' || t === 'long';

/** The literal `l op r` of result type `type`, or undefined when it is not folded. */
export function foldArithmetic(op: FoldedOp, l: IrExpr, r: IrExpr, type: KqlType): IrExpr | undefined {
  if (l.kind !== 'lit' || r.kind !== 'lit' || l.value === null || r.value === null) return undefined;
  if (type === 'timespan') return foldTimespan(op, l, r);
  if (op === '/' || op === '%') return undefined;
  if (type === 'long' && integral(l.type) && integral(r.type)) {
    const a = toBigInt(l.value);
    const b = toBigInt(r.value);
    if (a === undefined || b === undefined) return undefined;
    const value = op === '+' ? a + b : op === '-' ? a - b : a * b;
    return value < MIN_LONG || value > MAX_LONG ? undefined : { kind: 'lit', type: 'long', value };
  }
  if (type === 'real' && (l.type === 'real' || integral(l.type)) && (r.type === 'real' || integral(r.type))) {
    const a = Number(l.value);
    const b = Number(r.value);
    const value = op === '+' ? a + b : op === '-' ? a - b : a * b;
    return Number.isFinite(value) ? { kind: 'lit', type: 'real', value } : undefined;
  }
  return undefined;
}

function toBigInt(value: string | number | bigint | boolean): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return undefined;
}

/**
 * A timespan literal in ticks, or undefined when there is none in range. A result finer than a
 * microsecond (`1microsecond / 2` is 5 ticks) is folded too: the analyzer refuses it at its position
 * unless it is folded further into whole microseconds (scalars.ts); left to the engine it was cut to
 * 0. So is a quotient or product that is no whole number of ticks (`1d / 7`, `1s / 3.0`): Kusto's
 * value is its nearest tick, never a whole microsecond, and the engine would cut it to one.
 */
function foldTimespan(op: FoldedOp, l: IrExpr & { kind: 'lit' }, r: IrExpr & { kind: 'lit' }): IrExpr | undefined {
  const ticks = exactTimespanTicks(op, l, r) ?? nearestTimespanTicks(op, l, r);
  return ticks === undefined ? undefined : { kind: 'lit', type: 'timespan', value: ticks };
}

/**
 * `l * r` or `l / r` (a timespan literal by a non-zero number) rounded to the nearest tick (a tie to
 * even, .NET's default; no Kusto page says more); a real factor is applied as a double, as Kusto
 * holds it (`1d * 0.1` is 86400000000.00002 ticks, so 2.4 hours). Undefined beyond 64 bits or for NaN.
 */
function nearestTimespanTicks(
  op: FoldedOp,
  l: IrExpr & { kind: 'lit' },
  r: IrExpr & { kind: 'lit' },
): bigint | undefined {
  const a = toBigInt(l.value!);
  if (l.type !== 'timespan' || a === undefined || (op !== '*' && op !== '/')) return undefined;
  let ticks: bigint | undefined;
  if (integral(r.type) && op === '/') {
    const b = toBigInt(r.value!);
    if (b !== undefined && b !== 0n) ticks = roundedQuotient(a, b);
  } else if (r.type === 'real' && Number(r.value) !== 0) {
    const value = op === '*' ? Number(a) * Number(r.value) : Number(a) / Number(r.value);
    if (Number.isFinite(value)) ticks = BigInt(roundHalfEven(value));
  }
  return ticks === undefined || ticks < MIN_LONG || ticks > MAX_LONG ? undefined : ticks;
}

/** a / b to the nearest integer, ties to even. */
function roundedQuotient(a: bigint, b: bigint): bigint {
  const q = a / b; // toward zero
  const twiceRest = abs(2n * (a % b));
  if (twiceRest < abs(b) || (twiceRest === abs(b) && q % 2n === 0n)) return q;
  return a < 0n === b < 0n ? q + 1n : q - 1n;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction !== 0.5) return Math.round(value);
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * The exact tick count of `l op r` for a timespan literal l (+ - of a timespan, * or / by a number),
 * whole ticks or not microseconds; undefined when it is no whole number of ticks or beyond 64 bits.
 * Sub-microsecond constants (`1tick * 10`) are folded with it in scalars.ts.
 */
export function exactTimespanTicks(
  op: FoldedOp,
  l: IrExpr & { kind: 'lit' },
  r: IrExpr & { kind: 'lit' },
): bigint | undefined {
  const a = toBigInt(l.value!);
  if (l.type !== 'timespan' || a === undefined) return undefined;
  let ticks: bigint | undefined;
  if (r.type === 'timespan' && (op === '+' || op === '-')) {
    const b = toBigInt(r.value!);
    if (b !== undefined) ticks = op === '+' ? a + b : a - b;
  } else if (integral(r.type) && (op === '*' || op === '/')) {
    const b = toBigInt(r.value!);
    if (b !== undefined && op === '*') ticks = a * b;
    else if (b !== undefined && b !== 0n && a % b === 0n) ticks = a / b;
  } else if (r.type === 'real' && (op === '*' || op === '/') && Number(r.value) !== 0) {
    const value = op === '*' ? Number(a) * Number(r.value) : Number(a) / Number(r.value);
    if (Number.isSafeInteger(value)) ticks = BigInt(value);
  }
  return ticks === undefined || ticks < MIN_LONG || ticks > MAX_LONG ? undefined : ticks;
}
