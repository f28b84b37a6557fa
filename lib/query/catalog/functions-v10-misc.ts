// around, bag_zip, datetime_list_timezones and assert (their Kusto documentation pages).
import type { IrExpr } from '../ir';
import { foldConstant } from '../range';
import { both, constantOf, type ArgumentCheck, type ScalarFunction, type SqlCall } from './types';

/** around: center - delta <= value <= center + delta, both ends inclusive (the page lists 01:29 and 01:31 for 1min around 01:30); null when any argument is. */
function around(c: SqlCall): string {
  const [value, center, delta] = c.a as [string, string, string];
  if (c.args[0]!.type === 'datetime') {
    return `(${value} BETWEEN ${c.d.addMicros(center, `-(${delta})`)} AND ${c.d.addMicros(center, delta)})`;
  }
  return `(${value} BETWEEN ${center} - ${delta} AND ${center} + ${delta})`;
}

/**
 * bag_zip: the i-th string key gets the i-th value (null past the values' end, or when the values
 * are no array); keys that are not strings are skipped; no bag when the keys are no array. Built
 * as JSON text from the elements' own JSON, so values keep their types. A bag holds a key once:
 * the page is silent on a repeated key, so the last one's value wins (the key is kept only where
 * no later string key equals it; compared as strings, so differently escaped spellings match).
 */
function bagZip(c: SqlCall): string {
  const asList = (x: string): string => `CASE WHEN json_type(${x}) = 'ARRAY' THEN CAST(${x} AS JSON[]) END`;
  const pair = `CAST(_k[i] AS VARCHAR) || ':' || coalesce(CAST(_v[i] AS VARCHAR), 'null')`;
  // The string keys sorted by text, the later index first: the first of each run is the key's last
  // occurrence, and those indexes sorted again are the kept keys in order. O(n log n): a look for a
  // later equal key per key was O(n^2) (100,000 keys ran past a minute, uninterruptible).
  const tagged = `list_filter(list_transform(_k, (e, i) -> {'s': CASE WHEN json_type(e) = 'VARCHAR' THEN json_extract_string(e, '$') END, 'n': -i}), x -> x.s IS NOT NULL)`;
  const kept = `list_transform([list_sort(${tagged})], _zs -> list_sort(list_transform(list_filter(_zs, (e, n) -> n = 1 OR _zs[n - 1].s <> e.s), e -> -e.n)))[1]`;
  const pairs = `list_transform(${kept}, i -> ${pair})`;
  const bag = `CAST('{' || array_to_string(${pairs}, ',') || '}' AS JSON)`;
  return `list_transform([${asList(c.a[0]!)}], _k -> list_transform([${asList(c.a[1]!)}], _v -> CASE WHEN _k IS NOT NULL THEN ${bag} END)[1])[1]`;
}

/**
 * ICU's Java-compatible three-letter zone IDs, which DuckDB's zone list holds but the IANA
 * database (the page's list) does not. datetime_utc_to_local still accepts them.
 */
const NOT_IANA = [
  'ACT',
  'AET',
  'AGT',
  'ART',
  'AST',
  'BET',
  'BST',
  'CAT',
  'CNT',
  'CST',
  'CTT',
  'EAT',
  'ECT',
  'IET',
  'IST',
  'JST',
  'MIT',
  'NET',
  'NST',
  'PLT',
  'PNT',
  'PRT',
  'PST',
  'SST',
  'VST',
];

/** The IANA zone names DuckDB's ICU knows (those datetime_utc_to_local and datetime_local_to_utc accept), sorted. */
const TIMEZONES = `(SELECT to_json(list(name ORDER BY name)) FROM pg_timezone_names() WHERE name NOT IN (${NOT_IANA.map((n) => `'${n}'`).join(', ')}))`;

/** A bool condition's value when it is a constant: literals, comparisons of folded numbers or of strings, not/and/or. */
function constantBool(e: IrExpr): boolean | undefined {
  if (e.kind === 'lit') return typeof e.value === 'boolean' ? e.value : undefined;
  if (e.kind !== 'call') return undefined;
  const [x, y] = e.args;
  switch (e.fn) {
    case 'not': {
      const v = constantBool(x!);
      return v === undefined ? undefined : !v;
    }
    case 'and':
    case 'or': {
      const l = constantBool(x!);
      const r = constantBool(y!);
      if (l === undefined || r === undefined) return undefined;
      return e.fn === 'and' ? l && r : l || r;
    }
    case 'eq':
    case 'ne':
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge':
      return compare(e.fn, x!, y!);
    default:
      return undefined;
  }
}

function compare(op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge', x: IrExpr, y: IrExpr): boolean | undefined {
  const folded = [foldConstant(x), foldConstant(y)];
  const strings = [constantOf(x), constantOf(y)];
  let order: number;
  if (typeof folded[0] === 'bigint' && typeof folded[1] === 'bigint') {
    // Two longs compare exactly: as doubles, 2^53 + 1 and 2^53 are equal.
    const [a, b] = folded as [bigint, bigint];
    order = a < b ? -1 : a > b ? 1 : 0;
  } else if (folded[0] !== undefined && folded[1] !== undefined) {
    // A long with a real compares as two reals, as the engines convert it.
    const [a, b] = folded.map(Number) as [number, number];
    order = a < b ? -1 : a > b ? 1 : 0;
  } else if (typeof strings[0] === 'string' && typeof strings[1] === 'string' && x.type === 'string') {
    order = strings[0] < strings[1] ? -1 : strings[0] > strings[1] ? 1 : 0;
  } else return undefined;
  return { eq: order === 0, ne: order !== 0, lt: order < 0, le: order <= 0, gt: order > 0, ge: order >= 0 }[op];
}

/** assert's condition must be known when the query is analyzed; false fails the query with the message. */
const assertCheck: ArgumentCheck = (args) => {
  const value = constantBool(args[0]!);
  if (value === undefined) return [0, 'the condition must be a constant (it cannot depend on a row)'];
  return value ? undefined : [0, `failed with message: '${String(constantOf(args[1]))}'`];
};

export const MISC_V10_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'around',
    family: 'math',
    summary: 'Whether value lies in [center - delta, center + delta], ends included; null when any argument is null.',
    signatures: [
      {
        params: [
          { name: 'value', type: 'number' },
          { name: 'center', type: 'number' },
          { name: 'delta', type: 'number' },
        ],
        result: 'bool',
      },
      {
        params: [
          { name: 'value', type: 'datetime' },
          { name: 'center', type: 'datetime' },
          { name: 'delta', type: 'timespan' },
        ],
        result: 'bool',
      },
      {
        params: [
          { name: 'value', type: 'timespan' },
          { name: 'center', type: 'timespan' },
          { name: 'delta', type: 'timespan' },
        ],
        result: 'bool',
      },
    ],
    ...both(around),
  },
  {
    name: 'bag_zip',
    family: 'array',
    summary:
      'A property bag whose keys are the string elements of one array and values the elements of another at the same index (null past its end); null when the keys are no array.',
    signatures: [
      {
        params: [
          { name: 'KeysArray', type: 'dynamic' },
          { name: 'ValuesArray', type: 'dynamic' },
        ],
        result: 'dynamic',
      },
    ],
    duckdb: bagZip,
    timestream: null,
  },
  {
    name: 'datetime_list_timezones',
    family: 'datetime',
    summary:
      'The IANA time zone names this service knows (those datetime_utc_to_local accepts), as a sorted dynamic array.',
    signatures: [{ params: [], result: 'dynamic' }],
    duckdb: () => TIMEZONES,
    timestream: null,
  },
  {
    name: 'assert',
    family: 'type',
    summary:
      'true when a constant condition holds; otherwise the query fails with the constant message. The condition cannot depend on a row.',
    signatures: [
      {
        params: [
          { name: 'condition', type: 'bool' },
          { name: 'message', type: 'string', constant: true },
        ],
        result: 'bool',
      },
    ],
    check: assertCheck,
    ...both(() => 'TRUE'),
  },
];
