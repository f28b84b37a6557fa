// buildschema(DynamicExpr) (buildschema-aggregation-function docs): the minimal schema admitting
// every value of the group. A bag is {"key": schema, ...} with keys in order of first appearance, an
// array is {"`indexer`": schema of its elements}, a primitive is its type name (long, double, string,
// bool), and a path seen with several types holds the list of them in order of first appearance
// (the page prints "x":["long","string"] and "y":["double",{"w":"string"}]). JSON nulls add nothing.
// DuckDB only: Timestream has no JSON tree walk.
import type { AggregateFunction, SqlCall } from './types';

/** A node's type as the schema names it; '' for a container (bag or array), null for a JSON null. */
const KIND =
  "CASE WHEN type IN ('OBJECT', 'ARRAY') THEN '' WHEN type IN ('BIGINT', 'UBIGINT', 'HUGEINT') THEN 'long' " +
  "WHEN type = 'DOUBLE' THEN 'double' WHEN type = 'VARCHAR' THEN 'string' WHEN type = 'BOOLEAN' THEN 'bool' END";

/**
 * One value's nodes as {p: schema path, k: kind, o: position}: the path is the list of its keys as
 * JSON text, an array element's step written '[]' (no JSON string is spelled so), built down
 * json_tree()'s parent links per row as treepath does. Per row because a recursive query over the
 * group's values inside the aggregate ran out of memory at 100,000 rows.
 */
const rowNodes = (x: string): string =>
  `(WITH RECURSIVE n AS (SELECT id, parent, key, type FROM json_tree(${x})), ` +
  `p(id, type, path) AS (SELECT id, type, CAST([] AS VARCHAR[]) FROM n WHERE parent IS NULL UNION ALL ` +
  `SELECT n.id, n.type, list_append(p.path, CASE WHEN p.type = 'ARRAY' THEN '[]' ELSE CAST(to_json(n.key) AS VARCHAR) END) ` +
  `FROM n JOIN p ON n.parent = p.id) SELECT list({'p': path, 'k': ${KIND}, 'o': id}) FILTER (WHERE ${KIND} IS NOT NULL) FROM p)`;

/** `body` with `name` bound to the value of `value` (DuckDB has no let: a one-element list_transform). */
const bind = (name: string, value: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;

/**
 * The group's nodes are sorted once and merged with list functions (no subquery can read an
 * aggregate's list here): distinct (path, kind) pairs at their first appearance (row * 2^32 + node
 * id), grouped by path into {p, o, ks} (a path has at most 5 kinds, so its kinds are read from the
 * next 5 entries: slicing the list per path was quadratic, 3.5 s for 8,000 keys). The text is written as events sorted by the first-appearance
 * positions of the path's prefixes: a node opens at that key and closes after every key below it
 * (the key plus the largest BIGINT); a key's comma is written unless it follows its bag's '{'.
 */
function buildSchema(c: SqlCall): string {
  const x = c.a[0]!;
  const nodes = `flatten(list_transform(list(${rowNodes(x)}) FILTER (WHERE ${x} IS NOT NULL), (l, i) -> list_transform(l, e -> {'p': e.p, 'k': e.k, 'o': i * 4294967296 + e.o})))`;
  const firsts = `list_sort(list_transform(list_filter(bs_a, (e, n) -> n = 1 OR bs_a[n - 1].p <> e.p OR bs_a[n - 1].k <> e.k), e -> {'p': e.p, 'o': e.o, 'k': e.k}))`;
  const starts = `list_filter(range(1, len(bs_s) + 1), n -> n = 1 OR bs_s[n - 1].p <> bs_s[n].p)`;
  const paths = `list_transform(bs_f, f -> {'p': bs_s[f].p, 'o': bs_s[f].o, 'ks': list_transform(list_filter(range(f, f + 5), j -> j <= len(bs_s) AND bs_s[j].p = bs_s[f].p), j -> bs_s[j].k)})`;
  const firstSeen = `map_from_entries(list_transform(bs_n, e -> {'key': e.p, 'value': e.o}))`;
  const sortKey = `list_transform(range(1, len(e.p) + 1), j -> bs_m[e.p[1:j]])`;
  const container = `coalesce(list_position(e.ks, ''), len(e.ks) + 1)`;
  const name = `CASE WHEN len(e.p) = 0 THEN '' ELSE replace(e.p[len(e.p)], '[]', '"\`indexer\`"') || ':' END`;
  const open =
    `${name} || CASE WHEN len(e.ks) > 1 THEN '[' ELSE '' END || array_to_string(list_concat(` +
    `list_transform(e.ks[1:${container} - 1], t -> '"' || t || '"'), CASE WHEN list_contains(e.ks, '') THEN ['{'] ELSE [] END), ',')`;
  const close =
    `CASE WHEN list_contains(e.ks, '') THEN '}' || array_to_string(list_transform(e.ks[${container} + 1:], t -> ',"' || t || '"'), '') ELSE '' END` +
    ` || CASE WHEN len(e.ks) > 1 THEN ']' ELSE '' END`;
  const events = `list_sort(flatten(list_transform(bs_n, e -> [{'k': ${sortKey}, 't': ${open}, 'l': len(e.p) > 0}, {'k': list_append(${sortKey}, 9223372036854775807), 't': ${close}, 'l': false}])))`;
  const text = `array_to_string(list_transform(bs_v, (e, n) -> CASE WHEN e.l AND NOT suffix(bs_v[n - 1].t, '{') THEN ',' ELSE '' END || e.t), '')`;
  const json = `CASE WHEN len(bs_n) > 0 THEN CAST(${bind('bs_v', events, text)} AS JSON) END`;
  return bind(
    'bs_a',
    `list_sort(${nodes})`,
    bind('bs_s', firsts, bind('bs_f', starts, bind('bs_n', paths, bind('bs_m', firstSeen, json)))),
  );
}

export const BUILDSCHEMA_V8_AGGREGATIONS: readonly AggregateFunction[] = [
  {
    name: 'buildschema',
    family: 'aggregation',
    summary:
      'The minimal schema admitting every value of expr: bags as {"key": schema}, arrays as {"`indexer`": schema}, type names, and a list where a path has several types (first appearance order).',
    defaultName: (n) => `schema_${n}`,
    signatures: [{ params: [{ name: 'DynamicExpr', type: 'dynamic' }], result: 'dynamic' }],
    duckdb: buildSchema,
    timestream: null,
  },
];
