// Functions Kusto users write that the other family files lack: set_has_element, translate,
// isascii, unicode code points, new_guid, rand, and make_list_with_nulls. The IPv4 family is in
// functions-v3-ipv4.ts. DuckDB holds dynamic as JSON, Timestream as JSON text (see arrays.ts).
import type { IrExpr } from '../ir';
import type { SqlDialect } from '../sql/dialect';
import { IPV4_FUNCTIONS } from './functions-v3-ipv4';
import { both, type AggregateFunction, type ScalarFunction } from './types';

const str = (name: string) => ({ name, type: 'string' as const });
const dyn = (name: string) => ({ name, type: 'dynamic' as const });

/** DuckDB: the elements of an array value as JSON texts, null for anything else. */
const duckTexts = (x: string): string =>
  `CASE WHEN json_type(${x}) = 'ARRAY' THEN list_transform(CAST(${x} AS JSON[]), e -> CAST(e AS VARCHAR)) END`;
/** Timestream: the elements of an array value as JSON texts, null for anything else. */
const trinoTexts = (x: string): string => `transform(try(CAST(json_parse(${x}) AS ARRAY(JSON))), e -> json_format(e))`;

/** Kusto pads a shorter replacement list with its last character (translate docs); an empty one deletes. */
const padded = (search: string, replacement: string, d: SqlDialect): string => {
  const last = d.name === 'duckdb' ? `right(${replacement}, 1)` : `substr(${replacement}, -1)`;
  return `CASE WHEN length(${replacement}) = 0 THEN '' ELSE ${replacement} || repeat(${last}, greatest(length(${search}) - length(${replacement}), 0)) END`;
};

/**
 * unicode_codepoints_to_string (and its deprecated alias make_string): each argument an integer or a
 * dynamic array of integers, at most 64 (its docs page, whose examples mix both).
 */
const codepointArguments = (args: readonly IrExpr[]): readonly [number, string] | undefined => {
  if (args.length > 64) return [64, 'takes at most 64 arguments'];
  const i = args.findIndex((x) => x.type !== 'dynamic' && x.type !== 'int' && x.type !== 'long');
  return i < 0 ? undefined : [i, 'expects an integer or a dynamic array of integers'];
};

export const FUNCTIONS_V3: readonly ScalarFunction[] = [
  {
    name: 'set_has_element',
    family: 'array',
    summary: 'Whether the array holds the value; null when the first argument is not an array.',
    signatures: [{ params: [dyn('set'), { name: 'value', type: 'any' }], result: 'bool' }],
    duckdb: (c) => `list_contains(${duckTexts(c.a[0]!)}, CAST(${c.json(1)} AS VARCHAR))`,
    timestream: (c) => `contains(${trinoTexts(c.a[0]!)}, ${c.json(1)})`,
  },
  {
    name: 'translate',
    family: 'string',
    summary: 'source with each character of searchList replaced by the one at the same place in replacementList.',
    signatures: [{ params: [str('searchList'), str('replacementList'), str('source')], result: 'string' }],
    ...both(({ a, d }) => `translate(${a[2]}, ${a[0]}, ${padded(a[0]!, a[1]!, d)})`),
  },
  {
    name: 'isascii',
    family: 'string',
    summary: 'Whether every character of the text is ASCII (code point below 128).',
    // Kusto.Language takes any scalar (value: Scalar), tested as its text.
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'bool' }],
    duckdb: ({ str: text }) => `NOT regexp_matches(${text(0)}, '[^\\x00-\\x7F]')`,
    timestream: ({ str: text }) => `NOT regexp_like(${text(0)}, '[^\\x00-\\x7F]')`,
  },
  {
    name: 'unicode_codepoints_from_string',
    // "Deprecated aliases: to_utf8()" (this function's page; Kusto.Language marks to_utf8 obsolete
    // for it): code points, not UTF-8 bytes.
    aliases: ['to_utf8'],
    family: 'string',
    summary: 'The Unicode code points of the text, as a dynamic array of numbers.',
    // Kusto.Language takes any scalar (value: Scalar): the code points of its text.
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'dynamic' }],
    duckdb: ({ str: text }) =>
      `CASE WHEN ${text(0)} = '' THEN JSON '[]' ELSE to_json(list_transform(string_split(${text(0)}, ''), ch -> CAST(unicode(ch) AS BIGINT))) END`,
    timestream: ({ str: text }) =>
      `json_format(CAST(transform(regexp_extract_all(${text(0)}, '(?s).'), ch -> CAST(codepoint(CAST(ch AS VARCHAR(1))) AS BIGINT)) AS JSON))`,
  },
  {
    name: 'unicode_codepoints_to_string',
    aliases: ['make_string'],
    family: 'string',
    summary:
      'The text of the Unicode code points given as integers or dynamic arrays of integers (up to 64 arguments).',
    signatures: [{ params: [{ name: 'codepoints', type: 'any' }], variadic: true, result: 'string' }],
    check: codepointArguments,
    duckdb: ({ a, args }) => {
      const lists = a.map((x, i) =>
        args[i]!.type === 'dynamic' ? `TRY_CAST(${x} AS BIGINT[])` : `[CAST(${x} AS BIGINT)]`,
      );
      const all = lists.length === 1 ? lists[0]! : `list_concat(${lists.join(', ')})`;
      return `coalesce(array_to_string(list_transform(${all}, c -> chr(CAST(c AS INTEGER))), ''), '')`;
    },
    timestream: ({ a, args }) => {
      const lists = a.map((x, i) =>
        args[i]!.type === 'dynamic' ? `try(CAST(json_parse(${x}) AS ARRAY(BIGINT)))` : `ARRAY[CAST(${x} AS BIGINT)]`,
      );
      const all = lists.length === 1 ? lists[0]! : `concat(${lists.join(', ')})`;
      return `coalesce(array_join(transform(${all}, c -> chr(c)), ''), '')`;
    },
  },
  {
    name: 'new_guid',
    family: 'type',
    summary: 'A random guid (a different one for each row).',
    signatures: [{ params: [], result: 'guid' }],
    ...both(() => `CAST(uuid() AS VARCHAR)`),
  },
  {
    name: 'rand',
    family: 'math',
    // rand(N) is a real from {0.0, 1.0, ..., N - 1} (its page), not a long.
    summary: 'A random real in [0, 1), or with a range a random whole real in {0.0, 1.0, ..., range - 1}.',
    signatures: [
      { params: [], result: 'real' },
      { params: [{ name: 'range', type: 'integer' }], result: 'real' },
    ],
    ...both(({ a }) => (a.length === 0 ? 'random()' : `CAST(floor(random() * ${a[0]}) AS DOUBLE)`)),
  },
  ...IPV4_FUNCTIONS,
];

export const AGGREGATIONS_V3: readonly AggregateFunction[] = [
  {
    name: 'make_list_with_nulls',
    family: 'aggregation',
    summary: 'A dynamic array of every value of expr, nulls included.',
    defaultName: (n) => `list_${n}`,
    signatures: [{ params: [{ name: 'expr', type: 'any' }], result: 'dynamic' }],
    // Each element as pack_array writes it, 'null' for null: a timespan as "01:00:00" (as make_list), not
    // its microseconds; NaN and the infinities as strings, so that the list stays JSON.
    ...both((c) => c.d.jsonArrayAgg(c.json(0), 'TRUE', false)),
  },
];
