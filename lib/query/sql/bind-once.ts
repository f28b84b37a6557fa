// DuckDB SQL that names a value several times (the dynamic conversions, the JSON-array checks of
// the array and series functions, catalog entries that read an argument more than once) doubles
// the text of nested calls at every level, and DuckDB's binding time grows with the text. A column
// or a short expression is written as is (the fast form); a long one (a function's whole result)
// is evaluated once and passed to the fragment as a lambda's parameter. DuckDB accepts aggregates,
// window functions and column references inside a lambda's body, so the fragment is unchanged.

import type { SqlDialect } from './dialect';

const BIND_ONCE_ABOVE = 120;

/** SQL this long or shorter (a column, a short expression) is cheap to write more than once. */
export const SHORT_SQL = BIND_ONCE_ABOVE;

/** body(value), with a long value bound once to a lambda parameter (DuckDB only). */
export function bindOnce(value: string, body: (v: string) => string): string {
  // One name serves every level: a nested bindOnce sits in the list, outside this lambda's body.
  return value.length <= BIND_ONCE_ABOVE ? body(value) : `list_transform([${value}], _dv -> ${body('_dv')})[1]`;
}

/**
 * body(value), with a long value bound once to a lambda parameter on either engine: on Timestream
 * (Trino) the value is the one element of an array that `transform` maps, as parseDatetime does.
 */
export function bindOnceIn(dialect: SqlDialect, value: string, body: (v: string) => string): string {
  if (dialect.name === 'duckdb') return bindOnce(value, body);
  return value.length <= BIND_ONCE_ABOVE
    ? body(value)
    : `element_at(transform(ARRAY[${value}], _tv -> ${body('_tv')}), 1)`;
}

/** FNV-1a of a text: the parameter's name, so that two nested lambdas share a name only for one value. */
function nameOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `_b${h.toString(36).padStart(7, '0')}`;
}

/**
 * A function's SQL with each long argument that it names more than once bound once (DuckDB only;
 * not for aggregations, whose arguments are per row). The longest is bound innermost, so a shorter
 * one it contains is replaced in its list too, inside the shorter one's lambda. An argument holding
 * a subquery (toscalar(T)) is bound whatever its length when the fragment has a lambda or a TRY:
 * DuckDB refuses a subquery inside a lambda's body ("subqueries in lambda expressions are not
 * supported") and inside TRY, not in the list a lambda maps. Any other fragment with a subquery is
 * left as written (a lambda's parameter cannot be read inside a subquery).
 */
export function bindRepeated(sql: string, args: readonly string[]): string {
  const inLambda = sql.includes('->') || sql.includes('TRY(');
  const subqueries = inLambda
    ? [...new Set(args)].filter((a) => a.includes('SELECT ')).sort((x, y) => y.length - x.length)
    : [];
  // A fragment with a subquery of its own (dynamic_to_json's recursive query over json_tree()) would
  // put it in the binding lambda's body: its arguments stay where they are, outside its lambdas.
  if (subqueries.length > 0 && ownSubquery(sql, subqueries)) return sql;
  let out = sql;
  // All in one struct: a second binding lambda would sit in the first one's body.
  const fields: string[] = [];
  for (const a of subqueries) {
    if (!out.includes(a)) continue;
    out = out.split(a).join(`${SUBQUERIES}.s${fields.length}`);
    fields.push(`'s${fields.length}': ${a}`);
  }
  if (!out.includes('SELECT ')) out = bindLong(out, args);
  return fields.length === 0 ? out : `list_transform([{${fields.join(', ')}}], ${SUBQUERIES} -> ${out})[1]`;
}

/** Whether sql holds a SELECT besides those of the subquery arguments it names. */
function ownSubquery(sql: string, subqueries: readonly string[]): boolean {
  return subqueries.reduce((rest, a) => rest.split(a).join(''), sql).includes('SELECT ');
}

/** The parameter holding a fragment's subquery arguments; a nested fragment's is in the outer's list. */
const SUBQUERIES = '_bsq';

/** sql with each long argument it names more than once bound once, the longest innermost. */
function bindLong(sql: string, args: readonly string[]): string {
  const repeated = [...new Set(args)]
    .filter((a) => a.length > BIND_ONCE_ABOVE && sql.indexOf(a) !== sql.lastIndexOf(a))
    .sort((x, y) => y.length - x.length);
  let out = sql;
  for (const a of repeated) {
    if (out.indexOf(a) === out.lastIndexOf(a)) continue;
    const v = nameOf(a);
    out = `list_transform([${a}], ${v} -> ${out.split(a).join(v)})[1]`;
  }
  return out;
}

/** The engines' calls that draw a new value each time they are written (rand(), new_guid()). */
const VOLATILE = /\b(?:random|uuid)\(\)/;

/**
 * An expression's SQL, spelled from its arguments' SQL, with each argument that draws at random
 * (rand(), new_guid()) and that the spelling names more than once bound once (DuckDB only): Kusto
 * computes an argument once, where two draws could disagree (make_datetime's day check read 1 and
 * the date 0). The spelling sees a field of one struct per drawn argument, so two draws written
 * alike (`strcat(rand(), "-", rand())`) stay two. A sub-query argument is computed once already; a
 * spelling with a sub-query of its own cannot sit in a lambda and names its arguments as it wrote them.
 */
export function bindDraws(args: readonly string[], spell: (args: readonly string[]) => string): string {
  const drawn = args.map((a) => VOLATILE.test(a) && !a.includes('SELECT '));
  if (!drawn.includes(true)) return spell(args);
  const held = args.map((a, i) => (drawn[i] ? `${DRAWS}.d${i}x` : a));
  const sql = spell(held);
  // DuckDB refuses a volatile call inside TRY(): a drawn argument there is bound even when named once.
  const tried = sql.includes('TRY(');
  const bound = held.filter((h, i) => drawn[i] && (tried ? sql.includes(h) : sql.split(h).length > 2));
  const subqueries = args.filter((a, i) => !drawn[i] && a.includes('SELECT '));
  const own = ownSubquery(sql, subqueries);
  let body = sql;
  held.forEach((h, i) => {
    if (drawn[i] && (own || !bound.includes(h))) body = body.split(h).join(args[i]!);
  });
  if (own || bound.length === 0) return body;
  const fields = bound.map((h) => `'${h.slice(DRAWS.length + 1)}': ${args[held.indexOf(h)]!}`);
  const list = `[{${fields.join(', ')}}]`;
  // The parameter's name is the list's own: an argument spelled once, put back in the body, may hold
  // a binding lambda of its own.
  const v = nameOf(list);
  return `list_transform(${list}, ${v} -> ${body.split(`${DRAWS}.`).join(`${v}.`)})[1]`;
}

/** The placeholder parameter of the drawn arguments while their spelling is written. */
const DRAWS = '_bdraw';
