// Arithmetic and conditional branches with a dynamic operand (`Value.temp * 1.8 + 32`, `-d.a`,
// `iff(p, d.a, 0)`), typed as Microsoft's Kusto.Language (the editor's type checker) types them.
// No documentation page states the values: a dynamic operand beside a typed one is converted as the
// conversion function of that type converts it (tolong, todouble, todecimal, totimespan; the same
// conversions comparisons already make), so `d.a + 1` is `tolong(d.a) + 1`, `d.a * 1.8` is
// `todouble(d.a) * 1.8`. Two dynamic operands, or a negated one, stay dynamic (Kusto.Language's
// type); their value keeps the operands' kind (sql/dynamic-arithmetic-sql.ts).
import { convert } from './convert';
import type { IrExpr, KqlType } from './ir';
import { commonType, isInteger } from './types';

export type ArithmeticOp = '+' | '-' | '*' | '/' | '%';

/**
 * Operands ready for the typed arithmetic rules: the dynamic one converted to the type Kusto.Language
 * gives the pair, 'dynamic' when both are dynamic, or undefined when Kusto.Language refuses the pair
 * (a string, bool or guid beside a dynamic; `*`, `/`, `%` with a datetime or timespan).
 */
export function alignArithmetic(
  op: ArithmeticOp,
  l: IrExpr,
  r: IrExpr,
): readonly [IrExpr, IrExpr] | 'dynamic' | undefined {
  if (l.type === 'dynamic' && r.type === 'dynamic') return 'dynamic';
  const dynamicLeft = l.type === 'dynamic';
  const target = operandType(op, dynamicLeft ? r.type : l.type);
  if (target === undefined) return undefined;
  return dynamicLeft ? [convert(l, target), r] : [l, convert(r, target)];
}

/**
 * The type a dynamic operand takes beside `other` (Kusto.Language: `dynamic + long` is long,
 * `dynamic * real` real, `dynamic + decimal` decimal, `dynamic ± timespan` timespan, `datetime +
 * dynamic` and `dynamic + datetime` datetime, so the dynamic is a timespan there; `datetime - dynamic`
 * and `dynamic - datetime` timespan, so the dynamic is a datetime there).
 */
function operandType(op: ArithmeticOp, other: KqlType): KqlType | undefined {
  if (isInteger(other)) return 'long';
  if (other === 'real' || other === 'decimal') return other;
  if (op !== '+' && op !== '-') return undefined;
  if (other === 'timespan') return 'timespan';
  // datetime - dynamic and dynamic - datetime are timespans (Kusto.Language): the dynamic is a datetime there.
  if (other === 'datetime') return op === '+' ? 'timespan' : 'datetime';
  return undefined;
}

/**
 * The branches of iff/case: Kusto.Language types `iff(p, d.a, 1)` long, `iff(p, d.a, "x")` string,
 * `iff(p, d.a, int(1))` int: the common type of the typed branches, each dynamic branch converted to
 * it. All dynamic: dynamic. Undefined when the typed branches have no common type.
 */
export function alignBranches(values: readonly IrExpr[]): { type: KqlType; values: readonly IrExpr[] } | undefined {
  const typed = values.filter((v) => v.type !== 'dynamic');
  if (typed.length === 0) return { type: 'dynamic', values };
  const type = commonType(typed.map((v) => v.type));
  if (type === undefined) return undefined;
  if (typed.length === values.length) return { type, values };
  return { type, values: values.map((v) => (v.type === 'dynamic' ? convert(v, type) : v)) };
}

/**
 * What a refused pair's message suggests: only a rewrite Kusto.Language and this service accept
 * (string + string is refused too, so a string gets strcat; real * timespan and timespan / timespan
 * are defined, real / timespan is not). Undefined where no
 * conversion of the dynamic value makes the pair valid (a bool or guid; `*`, `/`, `%` with a datetime).
 */
export function dynamicHint(op: ArithmeticOp, other: KqlType): string | undefined {
  if (other === 'string') return op === '+' ? 'strcat(tostring(...), ...)' : undefined;
  if (other === 'timespan') return op === '*' ? 'todouble(...)' : 'totimespan(...)';
  return undefined;
}

/**
 * The type a dynamic value is converted to when compared with a value of type `other` (==, !=, <,
 * in): a number, not truncated to an integer, so dynamic(20.5) == 20 and dynamic(20.5) in (20, 21)
 * are false and dynamic(0.5) > 0 is true.
 */
export const dynamicComparedAs = (other: KqlType): KqlType => (isInteger(other) ? 'real' : other);

const EXACT_REAL_LIMIT = 2n ** 53n;

const hugeInteger = (e: IrExpr): boolean =>
  e.kind === 'lit' &&
  isInteger(e.type) &&
  e.value !== null &&
  ((e.value as bigint) >= EXACT_REAL_LIMIT || (e.value as bigint) <= -EXACT_REAL_LIMIT);

/**
 * A dynamic value compared (`==`, `!=`, `<`, `<=`, `>`, `>=`, `between`) with an integer constant of
 * 2^53 or more in magnitude (`Metadata.seq == 9007199254740993`), where the comparison as a real
 * (dynamicComparedAs) rounds: 9007199254740993 would equal 9007199254740992. The dynamic value is
 * compared as a long where it is a whole number that converts to one (tolong), as a real otherwise
 * (`1e300 > 9007199254740993` stays true; -0.5 is not truncated to 0). Below 2^53 every integer is a real and the comparison as a real is exact: undefined
 * there, and when the other operands are not all integers (a real bound makes the engine compare reals).
 */
export function exactIntegerComparison(
  fn: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'between' | 'not_between',
  args: readonly IrExpr[],
): IrExpr | undefined {
  const dynamic = args.find((a) => a.type === 'dynamic');
  const others = args.filter((a) => a !== dynamic);
  if (!dynamic || !others.some(hugeInteger) || !others.every((o) => isInteger(o.type))) return undefined;
  const compare = (as: IrExpr): IrExpr => ({
    kind: 'call',
    fn,
    args: args.map((a) => (a === dynamic ? as : a)),
    type: 'bool',
  });
  const asLong = convert(dynamic, 'long');
  // tolong() truncates -0.5 to 0, which would cross a small bound of between; a whole number's real
  // equals its long's.
  const asReal = convert(dynamic, 'real');
  const converts: IrExpr = {
    kind: 'call',
    fn: 'and',
    args: [
      { kind: 'call', fn: 'isnotnull', args: [asLong], type: 'bool' },
      { kind: 'call', fn: 'eq', args: [asReal, convert(asLong, 'real')], type: 'bool' },
    ],
    type: 'bool',
  };
  return {
    kind: 'call',
    fn: 'iff',
    args: [converts, compare(asLong), compare(asReal)],
    type: 'bool',
  };
}
