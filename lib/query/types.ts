// Type helpers shared by the analyzer: numeric promotion, common types and the SQL-side literal constructors.
import type { IrExpr, IrValue, KqlType } from './ir';

export const isNumeric = (t: KqlType): boolean => t === 'int' || t === 'long' || t === 'real' || t === 'decimal';
export const isInteger = (t: KqlType): boolean => t === 'int' || t === 'long';

/** int < long < real: the wider of two numeric types. */
export function widerNumeric(a: KqlType, b: KqlType): KqlType {
  if (a === 'real' || b === 'real' || a === 'decimal' || b === 'decimal') return 'real';
  if (a === 'long' || b === 'long') return 'long';
  return 'int';
}

/** The type two branches (iff, case, coalesce) unify to, or undefined when they cannot. */
export function commonType(types: readonly KqlType[]): KqlType | undefined {
  let result: KqlType | undefined;
  for (const t of types) {
    if (result === undefined || result === t) {
      result = t;
      continue;
    }
    if (isNumeric(result) && isNumeric(t)) {
      result = widerNumeric(result, t);
      continue;
    }
    return undefined;
  }
  return result;
}

export const lit = (type: KqlType, value: IrValue): IrExpr => ({ kind: 'lit', type, value });

export const isConstant = (e: IrExpr): boolean =>
  e.kind === 'lit' || (e.kind === 'call' && e.args.every(isConstant) && e.fn !== 'dyn_get');
