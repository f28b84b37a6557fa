// SQL of arithmetic whose result is dynamic (`d.a + d.b`, `-d.a`; Kusto.Language types them
// dynamic, lib/query/dynamic-arithmetic.ts). The value keeps the operands' kind: two JSON integers
// give a JSON integer by long arithmetic (integer division, Kusto's non-negative %), anything else
// is computed on todouble() of the operands and gives a JSON number (NaN and the infinities as the
// strings "NaN", "Infinity", "-Infinity", as elsewhere in dynamic values); no number, null.
import { bindRepeated } from './bind-once';
import type { SqlDialect } from './dialect';

export type DynamicArithmeticFn = 'add' | 'sub' | 'mul' | 'div' | 'mod' | 'neg';

/** y is unused for 'neg'. */
export function dynamicArithmeticSql(d: SqlDialect, fn: DynamicArithmeticFn, x: string, y: string): string {
  const duck = d.name === 'duckdb';
  const isInt = (v: string): string =>
    duck ? `json_type(${v}) IN ('BIGINT', 'UBIGINT')` : `regexp_like(${v}, '^-?[0-9]+$')`;
  // Only read where isInt holds: the JSON text is digits, so a plain cast reads it (null past 64 bits).
  const long = (v: string): string => (duck ? `TRY_CAST(${v} AS BIGINT)` : `try_cast(${v} AS BIGINT)`);
  const intJson = (v: string): string => (duck ? `to_json(${v})` : `CAST(${v} AS VARCHAR)`);
  if (fn === 'neg') {
    const sql = `CASE WHEN ${isInt(x)} THEN ${intJson(`(-${long(x)})`)} ELSE ${realJson(d, `(-${d.dynToDouble(x)})`)} END`;
    return duck ? bindRepeated(sql, [x]) : sql;
  }
  const ints = `${isInt(x)} AND ${isInt(y)}`;
  const integral = intJson(apply(d, fn, long(x), long(y), true));
  const real = realJson(d, apply(d, fn, d.dynToDouble(x), d.dynToDouble(y), false));
  const sql = `CASE WHEN ${ints} THEN ${integral} ELSE ${real} END`;
  return duck ? bindRepeated(sql, [x, y]) : sql;
}

function apply(d: SqlDialect, fn: Exclude<DynamicArithmeticFn, 'neg'>, x: string, y: string, integer: boolean): string {
  switch (fn) {
    case 'add':
      return `(${x} + ${y})`;
    case 'sub':
      return `(${x} - ${y})`;
    case 'mul':
      return `(${x} * ${y})`;
    case 'div':
      return integer ? d.intDiv(x, y) : d.realDiv(x, y);
    case 'mod':
      // Kusto's % is never negative (numerical operators docs), as for typed operands.
      return `(((${x} % ${y}) + abs(${y})) % abs(${y}))`;
  }
}

/** A double as a JSON value, SQL null for null; NaN and the infinities as strings (no JSON number holds them). */
function realJson(d: SqlDialect, r: string): string {
  if (d.name === 'duckdb')
    // Written out, not bound in a lambda: DuckDB computes the repeated text once, the lambda cost 3x.
    return `CASE WHEN isfinite(${r}) THEN to_json(${r}) WHEN isnan(${r}) THEN CAST('"NaN"' AS JSON) WHEN ${r} > 0 THEN CAST('"Infinity"' AS JSON) WHEN ${r} < 0 THEN CAST('"-Infinity"' AS JSON) END`;
  return `CASE WHEN is_nan(${r}) THEN '"NaN"' WHEN is_infinite(${r}) THEN CASE WHEN ${r} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END ELSE json_format(CAST(${r} AS JSON)) END`;
}
