// indexof_regex, isutf8 and base64_encode_fromarray (their Kusto documentation pages).
import type { IrExpr } from '../ir';
import { regexCheck } from './strings';
import { canMatchEmpty, engineRegex } from '../regex-groups';
import { keptMatches } from '../regex-matches';
import { DUCK_LISTS } from './positions';
import { constantOf, type ScalarFunction, type SqlCall } from './types';

/**
 * indexof_regex: the matches are Kusto's non-overlapping left-to-right matches inside
 * [start, start + length) (the page's idx4: "ababaa" has no second "a.a"; empty ones as
 * regex-matches.ts keeps them). Each match is found as `(?s:(.*?))(?:regex)`: the shortest prefix
 * before the regex's own leftmost match, so the position of the k-th match kept is the length of
 * the matches before it (prefixes included), plus one character the engine stepped over after each
 * empty one, plus its prefix. A negative start, an occurrence below 0 or a length below -1 gives null (the page says
 * so, and prints null for a start of -1, unlike indexof, whose negative start counts from the end).
 */
function indexOfRegex(c: SqlCall): string {
  const start = c.a[2] ?? '0';
  const length = c.a[3] ?? '-1';
  const k = c.a[4] ?? '1';
  const wrapped = c.d.string(`(?s:(.*?))(?:${engineRegex(String(constantOf(c.args[1])), c.d.name)})`);
  // Start and length are bounded by the text's length before any arithmetic: a start past the end
  // answers -1 (as indexof's does) and a longer length means "to the end"; unbounded, the largest
  // long overflowed the addition or substr's length.
  const text = `length(${c.str(0)})`;
  const from = `least(${start}, ${text}) + 1`;
  const window = `CASE WHEN ${length} = -1 THEN substr(${c.str(0)}, ${from}) ELSE substr(${c.str(0)}, ${from}, least(${length}, ${text})) END`;
  const raw = `_mk[${k}] + 1`; // the k-th match kept, among all the engine found
  const before = `_m[1:${raw} - 1]`;
  const position = `${start} + length(array_to_string(${before}, '')) + len(list_filter(${before}, x -> x = '')) + length(_p[${raw}])`;
  const found = `CASE WHEN ${k} >= 1 AND len(_mk) >= ${k} THEN ${position} ELSE -1 END`;
  const kept = canMatchEmpty(String(constantOf(c.args[1]))) ? keptMatches(DUCK_LISTS, '_m') : 'range(0, len(_m))';
  const body = `list_transform([regexp_extract_all(_w, ${wrapped}, 1)], _p -> list_transform([${kept}], _mk -> ${found})[1])[1]`;
  const matches = `list_transform([regexp_extract_all(_w, ${wrapped})], _m -> ${body})[1]`;
  const valid = `${start} >= 0 AND ${k} >= 0 AND ${length} >= -1`;
  return `CAST(CASE WHEN ${valid} AND ${start} > ${text} THEN -1 WHEN ${valid} THEN list_transform([${window}], _w -> ${matches})[1] END AS BIGINT)`;
}

/** base64_encode_fromarray: each element must be a byte (an integer 0..255); otherwise the answer is empty, as the page prints for a null array. */
function bytesToBase64(c: SqlCall): string {
  // coalesce: a null element gives a null test, which list_bool_and would skip; it is no byte.
  // TRY_CAST: DuckDB casts every element whatever json_type says (an array or bag element was a
  // Conversion Error, not the empty answer).
  const isByte = `coalesce(json_type(e) IN ('UBIGINT', 'BIGINT') AND TRY_CAST(e AS BIGINT) BETWEEN 0 AND 255, false)`;
  const hex = `array_to_string(list_transform(_l, e -> printf('%02X', TRY_CAST(e AS BIGINT))), '')`;
  const list = `CASE WHEN json_type(${c.a[0]}) = 'ARRAY' THEN CAST(${c.a[0]} AS JSON[]) END`;
  return `coalesce(list_transform([${list}], _l -> CASE WHEN list_bool_and(list_transform(_l, e -> ${isByte})) OR len(_l) = 0 THEN to_base64(unhex(${hex})) END)[1], '')`;
}

const integerArg = (name: string): { name: string; type: 'integer'; optional: true } => ({
  name,
  type: 'integer',
  optional: true,
});

export const TEXT_V10_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'indexof_regex',
    family: 'string',
    summary:
      'The zero-based position of the occurrence-th non-overlapping match of a constant regex in the text, searched from start over length characters (-1: to the end); -1 when absent; null for a negative start or occurrence, or a length below -1.',
    signatures: [
      {
        params: [
          // any: a dynamic value is searched as its text, as indexof() searches it.
          { name: 'string', type: 'any' },
          { name: 'match', type: 'string', constant: true },
          integerArg('start'),
          integerArg('length'),
          integerArg('occurrence'),
        ],
        result: 'long',
      },
    ],
    check: (args: readonly IrExpr[]) => regexCheck(1)(args),
    duckdb: indexOfRegex,
    timestream: null,
  },
  {
    // Every string this service holds is valid UTF-8: ingestion decodes JSON, and both engines
    // store text as UTF-8 and refuse invalid bytes. So the answer is true for every value.
    name: 'isutf8',
    family: 'string',
    summary:
      'Whether the value (a dynamic one as its text) is a valid UTF-8 string: true, since every string here is (both engines store UTF-8).',
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'bool' }],
    duckdb: (c) => `(${c.str(0)} IS NOT NULL)`,
    timestream: (c) => `(${c.str(0)} IS NOT NULL)`,
  },
  {
    name: 'base64_encode_fromarray',
    family: 'string',
    summary: 'The base64 text of a dynamic array of bytes (integers 0..255); empty when the value is no such array.',
    signatures: [{ params: [{ name: 'base64_string_decoded_as_array', type: 'dynamic' }], result: 'string' }],
    duckdb: bytesToBase64,
    timestream: null,
  },
];
