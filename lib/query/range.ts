// The `range` source's arguments, checked at compile time where an engine would fail on them:
// a step of zero never ends (DuckDB refuses it with a binder error, so it must not reach it), a
// step below the engines' microsecond is zero to them, and a real range needs finite numbers.
// A step going the wrong way is fine: it gives no rows, as `range` stops before `to` is passed
// (https://learn.microsoft.com/en-us/kusto/query/range-operator).
import type { ErrorFactory } from './errors';
import type { IrExpr } from './ir';
import { MAX_LONG, TICKS_PER_MICRO } from './literals';
import type { Span } from './tokens';

/**
 * A value known before any row is read: a constant, a toscalar() value, or operations on those
 * (the toscalar docs compute range bounds this way). The engine evaluates the subqueries once.
 */
export const isRowFree = (e: IrExpr): boolean =>
  e.kind === 'lit' ||
  (e.kind === 'subquery' && e.mode === 'scalar') ||
  (e.kind === 'call' && e.fn !== 'dyn_get' && e.fn !== 'dyn_at' && e.args.every(isRowFree));

/** A constant's value, folded through + - * and unary minus; undefined when not foldable or null. */
export function foldConstant(e: IrExpr): bigint | number | undefined {
  if (e.kind === 'lit') return typeof e.value === 'bigint' || typeof e.value === 'number' ? e.value : undefined;
  if (e.kind !== 'call') return undefined;
  const args = e.args.map(foldConstant);
  if (args.some((a) => a === undefined)) return undefined;
  const [a, b] = args as (bigint | number)[];
  const real = args.some((x) => typeof x === 'number');
  const num = (x: bigint | number): number => Number(x);
  switch (e.fn) {
    case 'neg':
      return real ? -num(a!) : BigInt.asIntN(64, -(a as bigint));
    case 'add':
      return real ? num(a!) + num(b!) : BigInt.asIntN(64, (a as bigint) + (b as bigint));
    case 'sub':
      return real ? num(a!) - num(b!) : BigInt.asIntN(64, (a as bigint) - (b as bigint));
    case 'mul':
      return real ? num(a!) * num(b!) : BigInt.asIntN(64, (a as bigint) * (b as bigint));
    case 'tolong':
    case 'toint':
      return wholeConversion(e.fn, a!);
    default:
      return undefined;
  }
}

/**
 * `toint(2)`, `tolong(2)` of a folded integer (a `let n = toint(2);` hop bound or row count): the
 * integer itself, when toint keeps it (within 32 bits); reals and wider values are left to the engine.
 */
function wholeConversion(fn: 'toint' | 'tolong', a: bigint | number): bigint | undefined {
  if (typeof a !== 'bigint') return undefined;
  return fn === 'tolong' || BigInt.asIntN(32, a) === a ? a : undefined;
}

/**
 * @throws QueryError QUERY_SEMANTIC for a zero (or not finite) step or not finite real bounds,
 * QUERY_UNSUPPORTED for a datetime or timespan step below one microsecond.
 */
export function checkRangeStep(
  errors: ErrorFactory,
  args: { readonly from: IrExpr; readonly to: IrExpr; readonly step: IrExpr },
  spans: { readonly from: Span; readonly to: Span; readonly step: Span },
): void {
  const step = foldConstant(args.step);
  if (step === undefined) return;
  if (step === 0 || step === 0n)
    throw errors.semantic('the range step cannot be 0: the range would never end', spans.step);
  if (typeof step === 'number' && !Number.isFinite(step))
    throw errors.semantic('the range step must be a finite number', spans.step);
  if (args.step.type === 'timespan' && typeof step === 'bigint' && step / TICKS_PER_MICRO === 0n) {
    throw errors.unsupported('range steps below one microsecond are not supported', spans.step);
  }
  const from = foldConstant(args.from);
  const to = foldConstant(args.to);
  for (const [value, span] of [
    [from, spans.from],
    [to, spans.to],
  ] as const) {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw errors.semantic('the range bounds must be finite numbers', span);
  }
  // A real range counts its steps in a BIGINT: more than that many cannot be generated.
  if (
    from !== undefined &&
    to !== undefined &&
    (typeof from === 'number' || typeof to === 'number' || typeof step === 'number')
  ) {
    const count = Math.floor((Number(to) - Number(from)) / Number(step));
    if (count > Number(MAX_LONG)) throw errors.semantic('the range has more values than a long can count', spans.to);
  }
}
