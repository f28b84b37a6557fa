// Kusto's implicit conversion of an operand (usually dynamic) to the type an operator or function needs.
// Kept apart from scalars.ts so the function catalog can use it without an import cycle.
import type { IrExpr, KqlType, ScalarFn } from './ir';
import { isNumeric } from './types';

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

/** The explicit spelling of what a number may mean to todatetime()/totimespan(), for the refusal below. */
const EXPLICIT_FORMS: Readonly<Record<'todatetime' | 'totimespan', string>> = {
  todatetime:
    'for a count of seconds since 1970 write unixtime_seconds_todatetime(x) (or _milliseconds_, _microseconds_, _nanoseconds_)',
  totimespan: 'write its unit: x * 1s, x * 1d',
};

/**
 * Why todatetime()/totimespan() of a value that is not text (nor dynamic) is refused, though
 * Kusto.Language accepts any scalar there: their pages convert text, and neither they nor the
 * datetime and timespan type pages say what a number (ticks, seconds, days?), a bool or a guid becomes.
 */
export function undocumentedConversion(fn: 'todatetime' | 'totimespan', type: KqlType): string {
  const refusal = `${fn}() of a ${type} is not supported: its page converts text, and no Kusto page says what a ${type} converts to`;
  return isNumeric(type) ? `${refusal}; ${EXPLICIT_FORMS[fn]}` : refusal;
}
