// Kusto's implicit conversion of an operand (usually dynamic) to the type an operator or function needs.
// Kept apart from scalars.ts so the function catalog can use it without an import cycle.
import type { IrExpr, KqlType, ScalarFn } from './ir';

/**
 * Text tolong()/toint() read: an optional sign, then decimal digits or a hex integer ('0xFF'). The
 * engines' casts also accept digit separators ('1_000') and round a fraction ('1.5' is 2 in DuckDB).
 */
export const LONG_TEXT_PATTERN = '^[+-]?([0-9]+|0[xX][0-9a-fA-F]+)$';

const CONVERTERS: Partial<Record<KqlType, ScalarFn>> = {
  string: 'tostring',
  real: 'todouble',
  long: 'tolong',
  int: 'toint',
  bool: 'tobool',
  datetime: 'todatetime',
  dynamic: 'parse_json',
};

/**
 * Conversions of text that the function catalog spells: `parse ... d:timespan` (or guid, decimal)
 * and a dynamic compared with such a value read the text as totimespan/toguid/todecimal do.
 */
const CATALOG_CONVERTERS: Partial<Record<KqlType, string>> = {
  timespan: 'totimespan',
  guid: 'toguid',
  decimal: 'todecimal',
};

/** Converts e to the given type with Kusto's conversion function (used for dynamic operands). */
export function convert(e: IrExpr, type: KqlType): IrExpr {
  if (e.type === type) return e;
  const fn = CONVERTERS[type];
  const named = CATALOG_CONVERTERS[type];
  if (named && (e.type === 'string' || e.type === 'dynamic')) {
    const text = e.type === 'string' ? e : convert(e, 'string');
    return { kind: 'call', fn: 'catalog', ref: { catalog: 'scalar', name: named }, args: [text], type };
  }
  if (!fn) return e;
  return { kind: 'call', fn, args: [e], type };
}
