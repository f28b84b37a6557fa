// dynamic_to_json (dynamic-to-json-function docs): the canonical text of a dynamic value, property
// bags with their keys sorted at every level, no whitespace. SQL has no recursion over a JSON value,
// but a recursive CTE over json_tree()'s nodes has: each node gets the list of its ancestors' ranks
// among their siblings (a bag's children ranked by key, an array's by position), and the node's
// tokens (its opening text, and for a container its closing bracket) are joined in that order.
// This replaced lambdas unrolled once per level of nesting, which DuckDB bound about four times
// slower per level (about 160 ms per call at 5 levels on the loaded machine, seconds for a query
// of 20 calls, and binding ignores the query's interrupt); the CTE binds in a few ms and has no
// depth limit. Timestream: refused.
// Also array_split (array-split-function docs), which cuts an array at indices.
import type { ScalarFunction, SqlCall } from './types';

/** Above every sibling rank: the closing bracket of a container sorts after all of its children. */
const CLOSE = '9223372036854775807';

/** The canonical JSON text of the JSON value x (null for null). */
function canonical(x: string): string {
  // A bag's child has the full key path.key, an array's path[key] (json_tree does not quote keys, but
  // the character after the parent's path tells the two apart).
  const inBag = `n.fullkey = n.path || '.' || n.key`;
  const ranked =
    `SELECT n.id, n.parent, n.key, n.type, n.value, CASE WHEN n.parent IS NULL THEN NULL WHEN ${inBag} THEN 'OBJECT' ELSE 'ARRAY' END AS ptype, ` +
    `row_number() OVER (PARTITION BY n.parent ORDER BY CASE WHEN ${inBag} THEN n.key END, n.id) AS rn ` +
    `FROM json_tree(${x}) n`;
  const paths =
    `SELECT id, type, ptype, key, value, rn, CAST([] AS BIGINT[]) AS sk FROM t WHERE parent IS NULL ` +
    `UNION ALL SELECT t.id, t.type, t.ptype, t.key, t.value, t.rn, list_append(s.sk, t.rn) FROM t JOIN s ON t.parent = s.id`;
  const open =
    `SELECT sk AS k, CASE WHEN rn > 1 AND ptype IS NOT NULL THEN ',' ELSE '' END || ` +
    `CASE WHEN ptype = 'OBJECT' THEN CAST(to_json(key) AS VARCHAR) || ':' ELSE '' END || ` +
    `CASE type WHEN 'OBJECT' THEN '{' WHEN 'ARRAY' THEN '[' ELSE CAST(value AS VARCHAR) END AS tok FROM s`;
  const close = `SELECT list_append(sk, ${CLOSE}), CASE type WHEN 'OBJECT' THEN '}' ELSE ']' END FROM s WHERE type IN ('OBJECT', 'ARRAY')`;
  return `(WITH RECURSIVE t AS (${ranked}), s(id, type, ptype, key, value, rn, sk) AS (${paths}) SELECT string_agg(tok, '' ORDER BY k) FROM (${open} UNION ALL ${close}))`;
}

/**
 * array_split(array, index or indices): the slices [0, i1), [i1, i2), ... [iN, length); a negative
 * index counts from the end; indices are clamped to the array; a slice whose end is before its start
 * is empty. Null when the first argument is not an array.
 */
function arraySplit(c: SqlCall): string {
  const duck = c.d.name === 'duckdb';
  const dynamicIdx = c.args[1]!.type === 'dynamic';
  if (duck) {
    const l = `CAST(${c.a[0]} AS JSON[])`;
    // A dynamic holding one number (dynamic(2), dynamic(2.0), d.at) cuts there, as the integer form does
    // and as an array's numbers do; the cast of anything but an array to JSON[] was an engine Conversion Error.
    const index = (j: string): string => `TRY_CAST(CAST(${j} AS VARCHAR) AS BIGINT)`;
    const idx = dynamicIdx
      ? `CASE json_type(${c.a[1]}) WHEN 'ARRAY' THEN list_transform(CAST(${c.a[1]} AS JSON[]), e -> ${index('e')}) ` +
        `WHEN 'BIGINT' THEN [CAST(CAST(${c.a[1]} AS VARCHAR) AS BIGINT)] WHEN 'UBIGINT' THEN [${index(c.a[1]!)}] ` +
        `WHEN 'DOUBLE' THEN [${index(c.a[1]!)}] END`
      : `[CAST(${c.a[1]} AS BIGINT)]`;
    const bounds = `list_concat([0], list_transform(${idx}, x -> greatest(0, least(len(l), CASE WHEN x < 0 THEN len(l) + x ELSE x END))), [len(l)])`;
    const body = `to_json(list_transform(range(1, len(b)), j -> list_slice(l, b[j] + 1, b[j + 1])))`;
    return `CASE WHEN json_type(${c.a[0]}) = 'ARRAY' THEN list_transform([${l}], l -> list_transform([${bounds}], b -> ${body})[1])[1] END`;
  }
  const l = `try(CAST(json_parse(${c.a[0]}) AS ARRAY(JSON)))`;
  const idx = dynamicIdx
    ? `coalesce(try(CAST(json_parse(${c.a[1]}) AS ARRAY(BIGINT))), try(ARRAY[CAST(json_parse(${c.a[1]}) AS BIGINT)]))`
    : `ARRAY[CAST(${c.a[1]} AS BIGINT)]`;
  const norm = (x: string): string =>
    `greatest(0, least(cardinality(${l}), CASE WHEN ${x} < 0 THEN cardinality(${l}) + ${x} ELSE ${x} END))`;
  const bounds = `concat(ARRAY[0], transform(${idx}, x -> ${norm('x')}), ARRAY[cardinality(${l})])`;
  return `json_format(CAST(transform(sequence(1, cardinality(${bounds}) - 1), j -> slice(${l}, element_at(${bounds}, j) + 1, greatest(element_at(${bounds}, j + 1) - element_at(${bounds}, j), 0))) AS JSON))`;
}

export const JSON_V4_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'dynamic_to_json',
    family: 'type',
    summary:
      'The canonical JSON text of a dynamic value: property-bag keys sorted at every level of nesting, no whitespace, reals as tostring() writes them inside dynamic values (1E-07); a value of another type as tostring() writes it.',
    // any: the page's first rule, "a scalar value of type other than dynamic" gives its tostring().
    signatures: [{ params: [{ name: 'expr', type: 'any' }], result: 'string' }],
    duckdb: (c) =>
      c.args[0]!.type === 'dynamic' ? `coalesce(${c.d.kustoJsonText(canonical(c.a[0]!))}, '')` : c.str(0),
    timestream: null,
  },
  {
    name: 'array_split',
    family: 'array',
    summary:
      'The array cut at an index or at each of an array of indices (negative: from the end), as an array of arrays.',
    // The array form first: a dynamic argument would otherwise be converted to fit the integer form.
    signatures: [
      {
        params: [
          { name: 'array', type: 'dynamic' },
          { name: 'indices', type: 'dynamic' },
        ],
        result: 'dynamic',
      },
      {
        params: [
          { name: 'array', type: 'dynamic' },
          { name: 'index', type: 'integer' },
        ],
        result: 'dynamic',
      },
    ],
    duckdb: arraySplit,
    timestream: arraySplit,
  },
];
