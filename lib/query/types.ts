// Type helpers shared by the analyzer: numeric promotion, common types and the SQL-side literal constructors.
import type { IrExpr, IrValue, KqlType } from './ir';

export const isNumeric = (t: KqlType): boolean => t === 'int' || t === 'long' || t === 'real' || t === 'decimal';
export const isInteger = (t: KqlType): boolean => t === 'int' || t === 'long';

/**
 * int < long < real < decimal: the wider of two numeric types. A decimal beside any number, a real
 * included, makes a decimal (Kusto.Language types `1.5 + decimal(1)`, `min_of(real, decimal)` and
 * `iff(p, real, decimal)` decimal). Both engines hold a decimal as a double, so only the type changes.
 */
export function widerNumeric(a: KqlType, b: KqlType): KqlType {
  if (a === 'decimal' || b === 'decimal') return 'decimal';
  if (a === 'real' || b === 'real') return 'real';
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
  e.kind === 'lit' || (e.kind === 'call' && e.args.every(isConstant) && e.fn !== 'dyn_get' && e.fn !== 'dyn_at');

/** The type names a query may write (datatable columns, `to typeof(T)`), with Kusto's synonyms. */
const TYPE_NAMES: Readonly<Record<string, KqlType>> = {
  string: 'string',
  long: 'long',
  int: 'int',
  real: 'real',
  double: 'real',
  bool: 'bool',
  boolean: 'bool',
  datetime: 'datetime',
  date: 'datetime',
  timespan: 'timespan',
  time: 'timespan',
  dynamic: 'dynamic',
  decimal: 'decimal',
};

/**
 * The type a query's type name stands for (`guid` only where `withGuid`, as in `parse`), or
 * undefined. Own names only: `constructor` or `toString` are not types. The guid page names
 * `uniqueid` (and `uuid`) its synonyms; Kusto.Language reads `uniqueid` as a type name, not `uuid`.
 */
export function typeNamed(name: string, withGuid = false): KqlType | undefined {
  if (withGuid && (name === 'guid' || name === 'uniqueid')) return 'guid';
  return Object.hasOwn(TYPE_NAMES, name) ? TYPE_NAMES[name] : undefined;
}
