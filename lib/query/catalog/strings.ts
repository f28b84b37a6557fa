// String functions. Strings are never null in Kusto: a function whose SQL can give null for a string
// result is wrapped in coalesce(..., ''). Regular expressions and rewrites must be constants, so the
// compiler can validate and translate them (Timestream's replacement syntax is $1, DuckDB's \1).
import type { IrExpr } from '../ir';
import { DUCK_LISTS, nthPosition, nullForIrrelevant, TRINO_LISTS, type ListSql } from './positions';
import { both, constantOf, type ScalarFunction, type SqlBuilder, type SqlCall } from './types';
import { captureGroupNames, engineRegex, re2Problem } from '../regex-groups';
import { duckTry, floorDiv, guidText, forcedText } from './sql-helpers';
import { EXTRACT_ALL } from './strings-extract-all';
import { regexMatchCount } from '../regex-matches';
import { queryBagDuck, queryBagTs } from './url-query-bag';
import { foldsBeyondAscii, literalPattern } from '../sql/ascii-caseless';

const s = (name: string, constant = false) => ({ name, type: 'string' as const, ...(constant ? { constant } : {}) });
const str = (
  name: string,
  summary: string,
  params: ScalarFunction['signatures'][number]['params'],
  build: { duckdb: SqlBuilder; timestream: SqlBuilder | null },
  result: 'string' | 'long' | 'dynamic' | 'bool' | 'guid' = 'string',
): ScalarFunction => ({
  name,
  family: 'string',
  summary,
  signatures: [{ params, result }],
  ...build,
});

export const regexCheck =
  (index: number) =>
  (args: readonly IrExpr[]): readonly [number, string] | undefined => {
    const problem = re2Problem(String(constantOf(args[index])));
    return problem === undefined ? undefined : [index, problem];
  };

/** The constant regex argument i as the engine's SQL literal, its named groups in the engine's spelling. */
export const regexArg = ({ args, d }: SqlCall, i: number): string =>
  d.string(engineRegex(String(constantOf(args[i])), d.name));

/** tohex()'s widest padding: "Values greater than 16 are truncated to 16" (the tohex page). */
export const TOHEX_MAX_LENGTH = 16;

/**
 * extract()'s group number against the constant regex: a group the regex does not have, or past the
 * 9 that DuckDB's regexp_extract numbers, was an engine error (Invalid Input, or a Binder Error for
 * a number beyond an int); refused at the number instead.
 */
const captureGroupCheck = (args: readonly IrExpr[]): readonly [number, string] | undefined => {
  const written = constantOf(args[1]);
  const group = written === null ? NaN : Number(written);
  const groups = captureGroupNames(String(constantOf(args[0]))).length;
  if (Number.isInteger(group) && group >= 0 && group <= Math.min(groups, 9)) return undefined;
  if (groups > 9 && Number.isInteger(group) && group > 9 && group <= groups)
    return [1, `capture group ${group} is not supported: at most group 9 is extracted here`];
  const valid = groups === 0 ? '0, the whole match: the regex has no groups' : `0 (the whole match) to ${groups}`;
  return [1, `the regex has no capture group ${String(written)}; expected ${valid}`];
};

/** Trino's regexp_replace, whose rewrite names groups $1 where Kusto writes \1 (and a literal $ is \$). */
const trinoRegexReplace = (text: string, regex: string, rewrite: unknown, quote: (v: string) => string): string =>
  `regexp_replace(${text}, ${regex}, ${quote(
    String(rewrite)
      .replace(/\$/g, '\\$')
      .replace(/\\(\d)/g, '$$$1'),
  )})`;

/** A constant as a regex matching it literally. */
const escapeRegex = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => `\\${c}`);

/** Kusto's term boundary: neither side of a term is a letter or digit. */
const TERM_EDGE = '[^\\p{L}\\p{N}]';

const trimmer =
  (start: boolean, end: boolean): SqlBuilder =>
  ({ args, a, d }) => {
    const re = engineRegex(String(constantOf(args[0])), d.name);
    let sql = a[1]!;
    if (start) sql = `regexp_replace(${sql}, ${d.string(`^(?:${re})+`)}, '')`;
    // \z, not $: Java's $ (Timestream) also matches before a last line end.
    if (end) sql = `regexp_replace(${sql}, ${d.string(`(?:${re})+\\z`)}, '')`;
    return sql;
  };

const termAffix =
  (prefix: boolean, cs: boolean): SqlBuilder =>
  ({ args, a, d }) => {
    const text = String(constantOf(args[1]));
    // (?i) folds every letter in RE2; Kusto folds ASCII letters only (lib/query/sql/ascii-caseless.ts).
    const asciiOnly = !cs && foldsBeyondAscii(text);
    const needle = asciiOnly ? literalPattern(text, true) : escapeRegex(text);
    const flags = cs || asciiOnly ? '' : '(?i)';
    return d.regexMatch(
      a[0]!,
      d.string(prefix ? `${flags}(^|${TERM_EDGE})${needle}` : `${flags}${needle}($|${TERM_EDGE})`),
    );
  };

export const STRING_OPERATORS: readonly ScalarFunction[] = [
  str(
    'hasprefix',
    'Operator: a term of the text starts with the prefix, case-insensitively.',
    [s('text'), s('prefix', true)],
    both(termAffix(true, false)),
    'bool',
  ),
  str(
    'hasprefix_cs',
    'Operator: a term of the text starts with the prefix, case-sensitively.',
    [s('text'), s('prefix', true)],
    both(termAffix(true, true)),
    'bool',
  ),
  str(
    'hassuffix',
    'Operator: a term of the text ends with the suffix, case-insensitively.',
    [s('text'), s('suffix', true)],
    both(termAffix(false, false)),
    'bool',
  ),
  str(
    'hassuffix_cs',
    'Operator: a term of the text ends with the suffix, case-sensitively.',
    [s('text'), s('suffix', true)],
    both(termAffix(false, true)),
    'bool',
  ),
];

/** scheme://[user[:password]@]host[:port][path][?query][#fragment] */
const URL_RE = '^([^:/?#]+)://(?:([^:@/]*)(?::([^@/]*))?@)?([^:/?#]*)(?::([0-9]+))?([^?#]*)(?:[?]([^#]*))?(?:#(.*))?$';

/**
 * The port .NET's Uri gives a URL of these schemes that names none (Kusto parses with it): an older
 * copy of Microsoft's string tutorial prints `"Port" : "80"` for `parseurl("http://user:pass@contoso.com/...")`.
 * Another scheme without a port keeps "".
 */
const DEFAULT_PORTS: readonly (readonly [string, string])[] = [
  ['http', '80'],
  ['https', '443'],
  ['ws', '80'],
  ['wss', '443'],
  ['ftp', '21'],
  ['gopher', '70'],
  ['nntp', '119'],
  ['telnet', '23'],
  ['ldap', '389'],
  ['mailto', '25'],
  ['net.tcp', '808'],
];

/** The port written, else the default of the (case-insensitive) scheme; both engines share the SQL. */
const urlPort = (scheme: string, port: string): string =>
  `CASE WHEN ${port} <> '' THEN ${port} ELSE CASE lower(${scheme}) ${DEFAULT_PORTS.map(([k, v]) => `WHEN '${k}' THEN '${v}'`).join(' ')} ELSE '' END END`;

/** DuckDB: parse_url's property bag; its query string is a bag of its key=value pairs. */
const parseUrlDuck: SqlBuilder = ({ a, d }) => {
  const re = d.string(URL_RE);
  const g = (n: number): string => `regexp_extract(${a[0]}, ${re}, ${n})`;
  const query = `CAST(${queryBagDuck(g(7))} AS JSON)`;
  return `CASE WHEN regexp_matches(${a[0]}, ${re}) THEN json_object('Scheme', ${g(1)}, 'Host', ${g(4)}, 'Port', ${urlPort(g(1), g(5))}, 'Path', ${g(6)}, 'Username', ${g(2)}, 'Password', ${g(3)}, 'Query Parameters', CASE WHEN ${g(7)} = '' THEN JSON '{}' ELSE ${query} END, 'Fragment', ${g(8)}) END`;
};

/**
 * Timestream: the same bag written as JSON text. Its regexp_extract gives null for a group that took
 * no part in the match (DuckDB gives ''), hence the coalesce.
 */
const parseUrlTs: SqlBuilder = ({ a, d }) => {
  const re = d.string(URL_RE);
  const g = (n: number): string => `coalesce(regexp_extract(${a[0]}, ${re}, ${n}), '')`;
  const text = (v: string): string => `json_format(CAST(${v} AS JSON))`;
  const fields: readonly (readonly [string, string])[] = [
    ['Scheme', text(g(1))],
    ['Host', text(g(4))],
    ['Port', text(urlPort(g(1), g(5)))],
    ['Path', text(g(6))],
    ['Username', text(g(2))],
    ['Password', text(g(3))],
    ['Query Parameters', queryBagTs(g(7))],
    ['Fragment', text(g(8))],
  ];
  const body = fields.map(([k, v]) => `'"${k}":' || ${v}`).join(" || ',' || ");
  return `CASE WHEN ${d.regexMatch(a[0]!, re)} THEN '{' || ${body} || '}' END`;
};

/**
 * Kusto encodes as .NET's HttpUtility.UrlEncode does: letters, digits and - _ . ! * ( ) stay, every
 * other character becomes its UTF-8 bytes as %xx in lowercase hex. The engines' own url_encode keep
 * other characters (~) and write uppercase hex, so each character is mapped here.
 */
function urlEncoder(space: string): { duckdb: SqlBuilder; timestream: SqlBuilder } {
  const safe = "'^[A-Za-z0-9._!*()-]$'";
  return {
    duckdb: ({ a }) =>
      `array_to_string(list_transform(regexp_extract_all(${a[0]}, '(?s).'), c -> CASE WHEN regexp_matches(c, ${safe}) THEN c WHEN c = ' ' THEN '${space}' ELSE regexp_replace(lower(hex(encode(c))), '(..)', '%\\1', 'g') END), '')`,
    timestream: ({ a }) =>
      `array_join(transform(regexp_extract_all(${a[0]}, '(?s).'), c -> CASE WHEN regexp_like(c, ${safe}) THEN c WHEN c = ' ' THEN '${space}' ELSE regexp_replace(lower(to_hex(to_utf8(c))), '(..)', '%$1') END), '')`,
  };
}

/**
 * DuckDB: body(tc, sc) with the characters of text and search as lists bound once, and the SQL of
 * "search's characters start at 1-based position i of text". A substr per position was O(n^2) on
 * one value (DuckDB's substr counts characters from the start), which DuckDB cannot interrupt:
 * countof of a 64 KB text took minutes. Reading elements of the bound lists is O(1); the first
 * character is compared before the rest.
 */
function withChars(
  text: string,
  search: string,
  body: (tc: string, sc: string, at: (i: string) => string) => string,
): string {
  // Element by element: a list_slice of the bound list inside the lambda copies the list each time.
  const rest = (i: string): string =>
    `coalesce(list_bool_and(list_transform(range(2, len(_sc) + 1), j -> _tc[${i} + j - 1] = _sc[j])), TRUE)`;
  const at = (i: string): string => `(len(_sc) = 0 OR (_tc[${i}] = _sc[1] AND ${rest(i)}))`;
  const chars = (x: string): string => `regexp_extract_all(${x}, '(?s).')`;
  return `list_transform([${chars(text)}], _tc -> list_transform([${chars(search)}], _sc -> ${body('_tc', '_sc', at)})[1])[1]`;
}

/**
 * indexof over the text: a match is the lookup's characters starting at a position. Null for a length
 * below -1 or a negative occurrence, as the indexof page's Returns section lists (its "start is less
 * than 0" there is not followed: the page's own example idx5 gives 2 for start -5, counted from the end).
 */
function indexOf(c: Parameters<SqlBuilder>[0], l: ListSql): string {
  return nullForIrrelevant(c.a[3], c.a[4], indexPosition(c, l));
}

function indexPosition({ a, str: text }: Parameters<SqlBuilder>[0], l: ListSql): string {
  const [src, look] = [text(0), text(1)];
  if (l === DUCK_LISTS) {
    return withChars(src, look, (tc, sc, at) =>
      nthPosition(l, {
        size: `len(${tc})`,
        matchLength: `len(${sc})`,
        matchesAt: at,
        start: a[2],
        length: a[3],
        occurrence: a[4],
      }),
    );
  }
  return nthPosition(l, {
    size: `length(${src})`,
    matchLength: `length(${look})`,
    matchesAt: (i) => `substr(${src}, ${i}, length(${look})) = ${look}`,
    start: a[2],
    length: a[3],
    occurrence: a[4],
  });
}

/** SQL: the width tohex pads to, minLength cut to 16 (the page), never below the digits (nor null). */
const tohexWidth = (minLength: string, hex: string): string =>
  `CAST(greatest(CASE WHEN ${minLength} > ${TOHEX_MAX_LENGTH} THEN ${TOHEX_MAX_LENGTH} ELSE coalesce(${minLength}, 0) END, length(${hex})) AS INTEGER)`;

/**
 * split()'s requestedIndex as a 1-based position: an index past any text's parts is held at 2^31 - 1
 * so that the + 1 never overflows (`split(s, ",", 9223372036854775807)` is `[]`); null stays null.
 */
const splitPosition = (index: string): string =>
  `(CASE WHEN ${index} > 2147483646 THEN 2147483646 ELSE ${index} END + 1)`;

/** strrep()'s largest multiplier (strrep page, Parameters); a larger one repeats this many times. */
const STRREP_MAX = 67_108_864;

export const STRING_FUNCTIONS: readonly ScalarFunction[] = [
  str(
    'parse_url',
    'The parts of an absolute URL as a property bag (Scheme, Host, Port, Path, Username, Password, Query Parameters, Fragment); a URL naming no port has its scheme\'s default (http 80, https 443, ftp 21, ...), another scheme "".',
    [s('url')],
    { duckdb: parseUrlDuck, timestream: parseUrlTs },
    'dynamic',
  ),
  {
    name: 'split',
    family: 'string',
    summary: 'The parts of source between delimiters, as a dynamic array; with an index, an array of that part only.',
    signatures: [
      // Kusto.Language takes any scalar as the source (split(Code, '0') of a long splits its text).
      {
        params: [{ name: 'source', type: 'any' }, s('delimiter'), { name: 'index', type: 'integer', optional: true }],
        result: 'dynamic',
      },
    ],
    duckdb: ({ a, str: text }) =>
      a[2] === undefined
        ? `to_json(string_split(${text(0)}, ${a[1]}))`
        : `to_json(list_slice(string_split(${text(0)}, ${a[1]}), ${splitPosition(a[2])}, ${splitPosition(a[2])}))`,
    timestream: ({ a, str: text }) =>
      `json_format(CAST(${a[2] === undefined ? `split(${text(0)}, ${a[1]})` : `slice(split(${text(0)}, ${a[1]}), ${splitPosition(a[2])}, 1)`} AS JSON))`,
  },
  {
    name: 'strcat_delim',
    family: 'string',
    summary: 'The arguments as text joined by the delimiter.',
    signatures: [
      {
        // Kusto.Language takes any value as the delimiter (as strcat_array's), joined as its text.
        params: [
          { name: 'delimiter', type: 'any' },
          { name: 'arg1', type: 'any' },
          { name: 'arg2', type: 'any' },
        ],
        variadic: true,
        result: 'string',
      },
    ],
    // "Concatenates between 2 and 64 arguments" (the page; Kusto.Language: 3 to 65 with the delimiter).
    check: (args) => (args.length > 65 ? [65, 'takes at most 64 arguments after the delimiter'] : undefined),
    ...both(
      ({ a, args, str: text }) =>
        `(${a
          .slice(1)
          .map((_, i) => text(i + 1))
          .join(` || ${args[0]!.type === 'string' ? a[0] : text(0)} || `)})`,
    ),
  },
  str(
    'strcat_array',
    'The elements of a dynamic array as text joined by the delimiter.',
    // Kusto.Language takes any scalar as the delimiter (delimiter: Scalar), joined as its text.
    [
      { name: 'array', type: 'dynamic' },
      { name: 'delimiter', type: 'any' },
    ],
    {
      duckdb: ({ a, args, str: text, d }) => {
        // Each element as tostring() writes it (a real as .NET does: 1E-07).
        const element = d.dynToString('e');
        // array_to_string takes a constant separator only (a Binder Error otherwise): a delimiter
        // that is a column, or a non-text constant (its text is computed), goes in front of every
        // element but the first, joined with ''.
        const joined =
          args[1]!.kind === 'lit' && args[1]!.type === 'string'
            ? `array_to_string(list_transform(CAST(${a[0]} AS JSON[]), e -> ${element}), ${text(1)})`
            : `array_to_string(list_transform(CAST(${a[0]} AS JSON[]), (e, i) -> CASE WHEN i > 1 THEN ${text(1)} ELSE '' END || ${element}), '')`;
        return `coalesce(CASE WHEN json_type(${a[0]}) = 'ARRAY' THEN ${joined} END, '')`;
      },
      timestream: ({ a, str: text }) =>
        `coalesce(try(array_join(transform(CAST(json_parse(${a[0]}) AS ARRAY(JSON)), e -> coalesce(json_extract_scalar(e, '$'), json_format(e))), ${text(1)})), '')`,
    },
  ),
  str(
    'replace_string',
    'text with every occurrence of lookup replaced by rewrite.',
    [s('text'), s('lookup'), s('rewrite')],
    both(({ a }) => `CASE WHEN ${a[1]} = '' THEN ${a[0]} ELSE replace(${a[0]}, ${a[1]}, ${a[2]}) END`),
  ),
  {
    name: 'replace_regex',
    family: 'string',
    summary: 'source with every match of a constant regex replaced by a constant rewrite (\\1 for groups).',
    signatures: [{ params: [s('source'), s('regex', true), s('rewrite', true)], result: 'string' }],
    check: regexCheck(1),
    duckdb: (c) => `regexp_replace(${c.a[0]}, ${regexArg(c, 1)}, ${c.a[2]}, 'g')`,
    timestream: (c) => trinoRegexReplace(c.a[0]!, regexArg(c, 1), constantOf(c.args[2]), c.d.string),
  },
  {
    // The deprecated form replace_regex's page still names ("Deprecated aliases: replace()"), with
    // the argument order of its old page: replace(regex, rewrite, text), the text last.
    name: 'replace',
    family: 'string',
    summary: 'Deprecated form of replace_regex with the text last: replace(regex, rewrite, text).',
    signatures: [{ params: [s('regex', true), s('rewrite', true), s('text')], result: 'string' }],
    check: regexCheck(0),
    duckdb: (c) => `regexp_replace(${c.a[2]}, ${regexArg(c, 0)}, ${c.a[1]}, 'g')`,
    timestream: (c) => trinoRegexReplace(c.a[2]!, regexArg(c, 0), constantOf(c.args[1]), c.d.string),
  },
  {
    name: 'extract',
    family: 'string',
    summary:
      'The capture group of the first match of a constant regex in text; empty when none. A fourth argument typeof(T) converts it to T (null when there is no match or it does not convert).',
    signatures: [
      {
        params: [s('regex', true), { name: 'captureGroup', type: 'integer', constant: true }, s('text')],
        result: 'string',
      },
    ],
    check: (args) => regexCheck(0)(args) ?? captureGroupCheck(args),
    // The engines want the group number as a plain integer literal.
    ...both((c) => `coalesce(regexp_extract(${c.a[2]}, ${regexArg(c, 0)}, ${Number(constantOf(c.args[1]))}), '')`),
  },
  EXTRACT_ALL,
  {
    name: 'indexof',
    family: 'string',
    summary:
      'The zero-based position of the occurrence-th lookup in source, searched from start (negative: from the end) over length characters (-1: to the end); -1 when absent.',
    signatures: [
      {
        params: [
          { name: 'source', type: 'any' },
          { name: 'lookup', type: 'any' },
          { name: 'start', type: 'integer', optional: true },
          { name: 'length', type: 'integer', optional: true },
          { name: 'occurrence', type: 'integer', optional: true },
        ],
        result: 'long',
      },
    ],
    duckdb: (c) => indexOf(c, DUCK_LISTS),
    timestream: (c) => indexOf(c, TRINO_LISTS),
  },
  {
    name: 'countof',
    family: 'string',
    summary: 'How often search occurs in text: overlapping for kind "normal", non-overlapping matches for "regex".',
    signatures: [
      { params: [s('text'), s('search'), s('kind', true)], result: 'long' },
      { params: [s('text'), s('search')], result: 'long' },
    ],
    check: (args) =>
      args[2] === undefined || ['normal', 'regex'].includes(String(constantOf(args[2])))
        ? args[2] && constantOf(args[2]) === 'regex'
          ? regexCheck(1)(args)
          : undefined
        : [2, "kind must be 'normal' or 'regex'"],
    duckdb: (c) =>
      constantOf(c.args[2]) === 'regex'
        ? regexMatchCount(DUCK_LISTS, c.d.name, c.a[0]!, String(constantOf(c.args[1])), (v) => c.d.string(v))
        : withChars(
            c.a[0]!,
            c.a[1]!,
            (tc, sc, at) =>
              `CAST(CASE WHEN len(${sc}) = 0 THEN 0 ELSE len(list_filter(range(1, len(${tc}) - coalesce(len(${sc}), 0) + 2), i -> ${at('i')})) END AS BIGINT)`,
          ),
    timestream: (c) =>
      constantOf(c.args[2]) === 'regex'
        ? regexMatchCount(TRINO_LISTS, c.d.name, c.a[0]!, String(constantOf(c.args[1])), (v) => c.d.string(v))
        : `CAST(CASE WHEN length(${c.a[1]}) = 0 OR length(${c.a[0]}) = 0 THEN 0 ELSE cardinality(filter(sequence(1, length(${c.a[0]})), i -> substr(${c.a[0]}, i, length(${c.a[1]})) = ${c.a[1]})) END AS BIGINT)`,
  },
  {
    ...str(
      'trim',
      'text without leading and trailing matches of a constant regex.',
      [s('regex', true), s('text')],
      both(trimmer(true, true)),
    ),
    check: regexCheck(0),
  },
  {
    ...str(
      'trim_start',
      'text without leading matches of a constant regex.',
      [s('regex', true), s('text')],
      both(trimmer(true, false)),
    ),
    check: regexCheck(0),
  },
  {
    ...str(
      'trim_end',
      'text without trailing matches of a constant regex.',
      [s('regex', true), s('text')],
      both(trimmer(false, true)),
    ),
    check: regexCheck(0),
  },
  {
    name: 'reverse',
    family: 'string',
    summary: 'The text of value (a datetime with 7 fractional digits) with its characters in reverse order.',
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'string' }],
    ...both((c) => `reverse(${forcedText(c)})`),
  },
  {
    name: 'strrep',
    family: 'string',
    summary: 'value as text repeated multiplier times, joined by delimiter.',
    signatures: [
      {
        params: [
          { name: 'value', type: 'any' },
          { name: 'multiplier', type: 'integer' },
          { name: 'delimiter', type: 'string', optional: true },
        ],
        result: 'string',
      },
    ],
    // The page's Parameters: "Must be a value from 1 to 67108864"; its Returns: a multiplier past the
    // maximal allowed value repeats the string that many times (it names 1024, the older maximum).
    // So a count past 67108864 is 67108864 (a long past an int failed in the engine's cast).
    duckdb: ({ a, str: text }) =>
      `CASE WHEN ${a[1]} > 0 THEN repeat(${text(0)} || ${a[2] ?? "''"}, CAST(least(${a[1]}, ${STRREP_MAX}) - 1 AS INTEGER)) || ${text(0)} ELSE '' END`,
    timestream: ({ a, str: text }) =>
      `CASE WHEN ${a[1]} > 0 THEN array_join(repeat(${text(0)}, CAST(least(${a[1]}, ${STRREP_MAX}) AS INTEGER)), ${a[2] ?? "''"}) ELSE '' END`,
  },
  str('url_decode', 'The URL-decoded text (a + is a space, as url_encode writes it).', [s('encoded_url')], {
    // A + is a space, as url_encode writes one (form encoding; Trino's url_decode reads it so too).
    duckdb: ({ a }) => `coalesce(${duckTry(a[0]!, (v) => `url_decode(replace(${v}, '+', ' '))`)}, '')`,
    timestream: ({ a }) => `coalesce(try(url_decode(${a[0]})), '')`,
  }),
  str(
    'url_encode',
    'The text percent-encoded for a URL query (UTF-8, lowercase hex, a space as +).',
    [s('url')],
    urlEncoder('+'),
  ),
  str(
    'url_encode_component',
    'The text percent-encoded for a URL (UTF-8, lowercase hex, a space as %20).',
    [s('url')],
    urlEncoder('%20'),
  ),
  str('base64_encode_tostring', 'The UTF-8 bytes of the text in base64.', [s('string')], {
    duckdb: ({ a }) => `to_base64(encode(${a[0]}))`,
    timestream: ({ a }) => `to_base64(to_utf8(${a[0]}))`,
  }),
  str('base64_decode_tostring', 'The UTF-8 text of base64 bytes; empty when invalid.', [s('base64_string')], {
    duckdb: ({ a }) => `coalesce(${duckTry(a[0]!, (v) => `decode(from_base64(${v}))`)}, '')`,
    timestream: ({ a }) => `coalesce(try(from_utf8(from_base64(${a[0]}))), '')`,
  }),
  {
    name: 'hash_sha256',
    family: 'string',
    summary: 'The SHA-256 of the text of value (a datetime with 7 fractional digits), as lowercase hex.',
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'string' }],
    duckdb: (c) => `sha256(${forcedText(c)})`,
    timestream: (c) => `lower(to_hex(sha256(to_utf8(${forcedText(c)}))))`,
  },
  {
    name: 'hash_md5',
    family: 'string',
    summary: 'The MD5 of the text of value (a datetime with 7 fractional digits), as lowercase hex.',
    signatures: [{ params: [{ name: 'value', type: 'any' }], result: 'string' }],
    duckdb: (c) => `md5(${forcedText(c)})`,
    timestream: (c) => `lower(to_hex(md5(to_utf8(${forcedText(c)}))))`,
  },
  {
    name: 'tohex',
    family: 'string',
    summary: `An integer as lowercase hex (two's complement for negatives), left-padded to minLength (cut to ${TOHEX_MAX_LENGTH}).`,
    signatures: [
      {
        params: [
          { name: 'value', type: 'integer' },
          { name: 'minLength', type: 'integer', optional: true },
        ],
        result: 'string',
      },
    ],
    duckdb: ({ a, args }) => {
      // An int is written as 32 bits (tohex(toint(-256)) is ffffff00), a long as 64.
      const value =
        args[0]!.type === 'int'
          ? `CASE WHEN ${a[0]} < 0 THEN CAST(${a[0]} AS BIGINT) + 4294967296 ELSE ${a[0]} END`
          : a[0]!;
      const hex = `lower(to_hex(CAST(${value} AS BIGINT)))`;
      if (a[1] === undefined) return `coalesce(${hex}, '')`;
      return `coalesce(lpad(${hex}, ${tohexWidth(a[1], hex)}, '0'), '')`;
    },
    // Timestream's to_hex takes bytes only: the 16 nibbles are read with floor division (which keeps
    // the two's complement of a negative) and leading zeros dropped; an int keeps its low 8 nibbles.
    timestream: ({ a, args, d }) => {
      const digits = args[0]!.type === 'int' ? 8 : 16;
      const nibble = `bitwise_and(${floorDiv(d, `CAST(${a[0]} AS BIGINT)`, 'CAST(power(16, k) AS BIGINT)')}, 15)`;
      const all = `array_join(transform(sequence(${digits - 1}, 0, -1), k -> substr('0123456789abcdef', CAST(${nibble} AS INTEGER) + 1, 1)), '')`;
      const hex = `regexp_replace(${all}, '^0{1,${digits - 1}}', '')`;
      if (a[1] === undefined) return `coalesce(${hex}, '')`;
      return `coalesce(lpad(${hex}, ${tohexWidth(a[1], hex)}, '0'), '')`;
    },
  },
  str(
    'toguid',
    'The guid written in the text; null when it is not one.',
    [s('value')],
    {
      duckdb: ({ a, d }) => `CAST(${guidText(d, a[0]!)} AS UUID)`,
      timestream: ({ a, d }) => guidText(d, a[0]!),
    },
    'guid',
  ),
];
