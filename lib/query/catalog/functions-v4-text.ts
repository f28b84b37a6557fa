// Text functions of the scalar-functions page: parse_csv (one CSV record into a string array,
// parse-csv-function docs), parse_path (a file path into its parts, parse-path-function docs),
// has_any_index (the first array item the text `has`), ipv4_netmask_suffix and parse_urlquery.
import type { SqlDialect } from '../sql/dialect';
import { address } from './functions-v3-ipv4';
import type { ScalarFunction, SqlCall } from './types';
import { queryBagDuck, queryBagTs } from './url-query-bag';

/**
 * One CSV field and the separator after it. Matched left to right, the fields come in order; after
 * the last field the pattern also matches an empty field at the end of the text, so a field counts
 * only while the separator before it is a comma (a line break ends the record: only the first
 * record is taken, as the docs say).
 */
const FIELD = `'("(?:[^"]|"")*"|[^,"\\r\\n]*)(,|\\r?\\n|$)'`;

/** A quoted field without its quotes, doubled quotes made single. */
const unquote = (f: string, d: SqlDialect): string =>
  `CASE WHEN ${f} LIKE '"%' THEN replace(${d.name === 'duckdb' ? 'substring' : 'substr'}(${f}, 2, length(${f}) - 2), '""', '"') ELSE ${f} END`;

function parseCsv(s: string, d: SqlDialect): string {
  if (d.name === 'duckdb') {
    const fields = `regexp_extract_all(${s}, ${FIELD}, 1)`;
    const seps = `regexp_extract_all(${s}, ${FIELD}, 2)`;
    const n = `coalesce(list_position(list_transform(${seps}, x -> x <> ','), TRUE), len(${seps}))`;
    return `to_json(list_transform(list_slice(${fields}, 1, ${n}), f -> ${unquote('f', d)}))`;
  }
  const fields = `regexp_extract_all(${s}, ${FIELD}, 1)`;
  const seps = `regexp_extract_all(${s}, ${FIELD}, 2)`;
  const n = `CAST(array_position(transform(${seps}, x -> x <> ','), TRUE) AS BIGINT)`;
  const count = `CASE WHEN ${n} = 0 THEN cardinality(${seps}) ELSE ${n} END`;
  return `json_format(CAST(transform(slice(${fields}, 1, ${count}), f -> ${unquote('f', d)}) AS JSON))`;
}

/**
 * parse_path: an optional scheme (`file://`), the directory (before the last / or \), the file
 * name (after it) with an alternate data stream after a ':' in it, the root (a drive `C:`) and
 * the extension (after the file name's last '.'); "" for a part that is absent (the docs' printed
 * objects).
 */
function parsePath(s: string, d: SqlDialect): string {
  const duck = d.name === 'duckdb';
  const extract = (x: string, re: string, group: number): string =>
    duck ? `regexp_extract(${x}, '${re}', ${group})` : `coalesce(regexp_extract(${x}, '${re}', ${group}), '')`;
  const scheme = extract(s, '^([A-Za-z][A-Za-z0-9+.-]+)://', 1);
  const rest = `regexp_replace(${s}, '^[A-Za-z][A-Za-z0-9+.-]+://', '')`;
  const dir = extract(rest, '^(.*)[\\\\/][^\\\\/]*$', 1);
  const last = extract(rest, '([^\\\\/]*)$', 1);
  const file = extract(last, '^([^:]*)', 1);
  const stream = extract(last, '^[^:]*:(.*)$', 1);
  const root = extract(dir, '^([A-Za-z]:)', 1);
  const dirName = extract(dir, '([^\\\\/]*)$', 1);
  const ext = extract(file, '\\.([^.]*)$', 1);
  const pairs: [string, string][] = [
    ['Scheme', scheme],
    ['RootPath', root],
    ['DirectoryPath', dir],
    ['DirectoryName', dirName],
    ['Filename', file],
    ['Extension', ext],
    ['AlternateDataStreamName', stream],
  ];
  if (duck) return `json_object(${pairs.map(([k, v]) => `'${k}', ${v}`).join(', ')})`;
  const text = pairs.map(([k, v]) => `'"${k}":' || json_format(CAST(${v} AS JSON))`).join(" || ',' || ");
  return `'{' || ${text} || '}'`;
}

/**
 * has_any_index: the 0-based position of the first item the text `has` (whole terms, case-insensitive,
 * as the has operator), -1 when none is or the array is empty. Items are matched through their text
 * (tostring of numbers); the empty item is in every text, as for has. An item of letters and digits
 * only is one term: looked up in the source's terms, cut once (_ht). Any other item is a regex search
 * of the source built for it, as before for all: 100,000 items compiled 100,000 regexes (past a
 * minute, uninterruptible).
 */
const hasAnyIndex = (source: string, values: string): string => {
  const text = `CASE WHEN json_type(e) = 'VARCHAR' THEN json_extract_string(e, '$') ELSE CAST(e AS VARCHAR) END`;
  const searched = `regexp_matches(_hs, '(?i)(^|[^\\p{L}\\p{N}])' || regexp_escape(t) || '($|[^\\p{L}\\p{N}])')`;
  const found = `(t = '' OR CASE WHEN regexp_full_match(t, '[\\p{L}\\p{N}]+') THEN list_contains(_ht, lower(t)) ELSE ${searched} END)`;
  const hits = `list_transform(CAST(${values} AS JSON[]), e -> list_transform([${text}], t -> ${found})[1])`;
  // The source is bound once (_hs): inside the per-item lambda it was computed again for every item.
  const first = `list_transform([regexp_extract_all(lower(_hs), '[\\p{L}\\p{N}]+')], _ht -> coalesce(list_position(${hits}, TRUE), 0) - 1)[1]`;
  return `CASE WHEN json_type(${values}) = 'ARRAY' THEN list_transform([${source}], _hs -> ${first})[1] END`;
};

/**
 * parse_urlquery: {"Query Parameters": {key: value, ...}} from `k1=v1&k2=v2`, values kept as written
 * (no %-decoding), the bag built as parse_url's (a repeated key once, with its last value).
 */
function parseUrlQuery(s: string, d: SqlDialect): string {
  if (d.name === 'duckdb') return `CAST('{"Query Parameters":' || ${queryBagDuck(s)} || '}' AS JSON)`;
  return `'{"Query Parameters":' || ${queryBagTs(s)} || '}'`;
}

export const TEXT_V4_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'parse_urlquery',
    aliases: ['parseurlquery'],
    family: 'string',
    summary: 'The key=value pairs of a URL query string as {"Query Parameters": {key: value, ...}}.',
    signatures: [{ params: [{ name: 'query', type: 'string' }], result: 'dynamic' }],
    duckdb: ({ a, d }) => parseUrlQuery(a[0]!, d),
    timestream: ({ a, d }) => parseUrlQuery(a[0]!, d),
  },
  {
    name: 'has_any_index',
    family: 'string',
    summary:
      'The 0-based position of the first item of values that source has as whole terms (case-insensitive); -1 when none.',
    signatures: [
      {
        params: [
          { name: 'source', type: 'string' },
          { name: 'values', type: 'dynamic' },
        ],
        result: 'long',
      },
    ],
    duckdb: ({ a }) => hasAnyIndex(a[0]!, a[1]!),
    timestream: null,
  },
  {
    name: 'ipv4_netmask_suffix',
    family: 'string',
    summary: 'The /prefix of an IPv4 address text, 32 when it has none; null for text that is no address.',
    signatures: [{ params: [{ name: 'ip', type: 'string' }], result: 'long' }],
    ...(() => {
      const build = (c: SqlCall): string => {
        const x = address(c, 0);
        return `CASE WHEN ${x.valid} THEN ${x.prefix} END`;
      };
      return { duckdb: build, timestream: build };
    })(),
  },
  {
    name: 'parse_csv',
    family: 'string',
    summary:
      'The fields of the first CSV record of the text as a string array ("" quotes a quote, quoted fields may hold , and line breaks).',
    signatures: [{ params: [{ name: 'csv_text', type: 'string' }], result: 'dynamic' }],
    duckdb: ({ a, d }) => parseCsv(a[0]!, d),
    timestream: ({ a, d }) => parseCsv(a[0]!, d),
  },
  {
    name: 'parse_path',
    family: 'string',
    summary:
      'The parts of a file path as a property bag (Scheme, RootPath, DirectoryPath, DirectoryName, Filename, Extension, AlternateDataStreamName).',
    signatures: [{ params: [{ name: 'path', type: 'string' }], result: 'dynamic' }],
    duckdb: ({ a, d }) => parsePath(a[0]!, d),
    timestream: ({ a, d }) => parsePath(a[0]!, d),
  },
];
