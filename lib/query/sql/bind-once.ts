// DuckDB SQL that names a value several times (the dynamic conversions, the JSON-array checks of
// the array and series functions) doubles the text of nested calls at every level, and DuckDB's
// binding time grows with the text. A column or a short expression is written as is (the fast
// form); a long one (a function's whole result) is evaluated once and passed to the fragment as
// a lambda's parameter.

const BIND_ONCE_ABOVE = 120;

/** body(value), with a long value bound once to a lambda parameter (DuckDB only). */
export function bindOnce(value: string, body: (v: string) => string): string {
  // One name serves every level: a nested bindOnce sits in the list, outside this lambda's body.
  return value.length <= BIND_ONCE_ABOVE ? body(value) : `list_transform([${value}], _dv -> ${body('_dv')})[1]`;
}
