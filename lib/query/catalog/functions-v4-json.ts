// dynamic_to_json (dynamic-to-json-function docs): the canonical text of a dynamic value, property
// bags with their keys sorted at every level, no whitespace. SQL has no recursion over a JSON value,
// so the levels are unrolled, each level one lambda over the value's children (an object's sorted
// keys or an array's elements): the SQL grows linearly with the depth. Values nested deeper than
// MAX_DEPTH keep their keys in stored order (docs/kql-functions.md says so). Timestream: refused.
// Also array_split (array-split-function docs), which cuts an array at indices.
import type { ScalarFunction, SqlCall } from './types';

/**
 * Levels of nesting whose keys are sorted. DuckDB's time to bind the nested lambdas grows about
 * fourfold per level (one call on the loaded 2-core machine: 4 levels 20 ms, 5 levels 90 ms, 6 levels
 * 290 ms, 8 levels 1 s, 12 levels 23 s), so the unrolling stops at 5.
 */
export const MAX_DEPTH = 5;

/** The JSON text of JSON value v (a lambda variable) with sorted keys down `depth` levels. */
function canonical(v: string, depth: number): string {
  if (depth === 0) return `CAST(${v} AS VARCHAR)`;
  const k = `k${depth}`;
  const e = `e${depth}`;
  const p = `p${depth}`;
  // A property read by JSON pointer: '~' and '/' inside the key are escaped as the pointer syntax wants.
  const property = `json_extract(${v}, '/' || replace(replace(${k}, '~', '~0'), '/', '~1'))`;
  const children =
    `CASE json_type(${v}) WHEN 'OBJECT' THEN list_transform(list_sort(json_keys(${v})), ${k} -> {'prefix': CAST(to_json(${k}) AS VARCHAR) || ':', 'child': ${property}}) ` +
    `ELSE list_transform(CAST(${v} AS JSON[]), ${e} -> {'prefix': '', 'child': ${e}}) END`;
  const inner = `array_to_string(list_transform(${children}, ${p} -> ${p}.prefix || coalesce(${canonical(`${p}.child`, depth - 1)}, 'null')), ',')`;
  // inner is written once (not once per branch), or the SQL would double with each level.
  const object = `json_type(${v}) = 'OBJECT'`;
  return (
    `CASE WHEN json_type(${v}) IN ('OBJECT', 'ARRAY') THEN ` +
    `CASE WHEN ${object} THEN '{' ELSE '[' END || ${inner} || CASE WHEN ${object} THEN '}' ELSE ']' END ` +
    `ELSE CAST(${v} AS VARCHAR) END`
  );
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
    const idx = dynamicIdx
      ? `list_transform(CAST(${c.a[1]} AS JSON[]), e -> TRY_CAST(CAST(e AS VARCHAR) AS BIGINT))`
      : `[CAST(${c.a[1]} AS BIGINT)]`;
    const bounds = `list_concat([0], list_transform(${idx}, x -> greatest(0, least(len(l), CASE WHEN x < 0 THEN len(l) + x ELSE x END))), [len(l)])`;
    const body = `to_json(list_transform(range(1, len(b)), j -> list_slice(l, b[j] + 1, b[j + 1])))`;
    return `CASE WHEN json_type(${c.a[0]}) = 'ARRAY' THEN list_transform([${l}], l -> list_transform([${bounds}], b -> ${body})[1])[1] END`;
  }
  const l = `try(CAST(json_parse(${c.a[0]}) AS ARRAY(JSON)))`;
  const idx = dynamicIdx ? `try(CAST(json_parse(${c.a[1]}) AS ARRAY(BIGINT)))` : `ARRAY[CAST(${c.a[1]} AS BIGINT)]`;
  const norm = (x: string): string =>
    `greatest(0, least(cardinality(${l}), CASE WHEN ${x} < 0 THEN cardinality(${l}) + ${x} ELSE ${x} END))`;
  const bounds = `concat(ARRAY[0], transform(${idx}, x -> ${norm('x')}), ARRAY[cardinality(${l})])`;
  return `json_format(CAST(transform(sequence(1, cardinality(${bounds}) - 1), j -> slice(${l}, element_at(${bounds}, j) + 1, greatest(element_at(${bounds}, j + 1) - element_at(${bounds}, j), 0))) AS JSON))`;
}

export const JSON_V4_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'dynamic_to_json',
    family: 'type',
    summary: `The canonical JSON text of a dynamic value: property-bag keys sorted (down to ${MAX_DEPTH} levels of nesting), no whitespace.`,
    signatures: [{ params: [{ name: 'expr', type: 'dynamic' }], result: 'string' }],
    duckdb: ({ a }) => `coalesce(list_transform([${a[0]}], v0 -> ${canonical('v0', MAX_DEPTH)})[1], '')`,
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
