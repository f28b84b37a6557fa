// replace_strings (replace-strings-function docs), base64_decode_toarray and base64_encode_fromguid
// (their docs pages), and the aggregations count_distinct,
// count_distinctif (count-distinct(if)-aggregation-function docs) and make_bag_if
// (make-bag-if-aggregation-function docs), hll_if (hll-if-aggregation-function docs).
import type { IrExpr } from '../ir';
import { distinctValue, maxSizeCheck } from './aggregations';
import { bagAsMap, firstWinsMerge } from './arrays';
import { constantOf, type AggregateFunction, type ArgumentCheck, type ScalarFunction, type SqlCall } from './types';
import { hllSketch } from './functions-v4-sketch';
import { duckTry } from './sql-helpers';

/** More lookups than there are private-use code points for their marks is refused. */
const MAX_LOOKUPS = 1000;

function constantArray(arg: IrExpr | undefined): unknown[] {
  const v: unknown = JSON.parse(String(constantOf(arg) ?? 'null'));
  return Array.isArray(v) ? v : [];
}

const lookupsCheck: ArgumentCheck = (args) =>
  constantArray(args[1]).length > MAX_LOOKUPS
    ? [1, `replace_strings() takes at most ${MAX_LOOKUPS} lookups`]
    : undefined;

/**
 * replace_strings: the earlier lookup takes precedence and matches do not overlap (the page's
 * "Thwas" example: 'is' listed first is replaced inside 'This'). Each lookup in turn is replaced by
 * a mark of private-use characters (U+E000, one per lookup, U+E001), which no later lookup can
 * match or match across; then the marks become the rewrites. A rewrite that is no string keeps the
 * matched text; a lookup that is no string (or is empty) is ignored. Text that itself holds these
 * private-use characters could be misread: they are reserved for this.
 */
function replaceStrings(c: SqlCall): string {
  const lookups = constantArray(c.args[1]);
  const rewrites = constantArray(c.args[2]);
  let sql = c.str(0);
  const marks: [string, string][] = [];
  lookups.forEach((lookup, i) => {
    if (typeof lookup !== 'string' || lookup === '') return;
    const mark = `\uE000${String.fromCharCode(0xe100 + i)}\uE001`;
    const rewrite = rewrites[i];
    marks.push([mark, typeof rewrite === 'string' ? rewrite : lookup]);
    sql = `replace(${sql}, ${c.d.string(lookup)}, ${c.d.string(mark)})`;
  });
  for (const [mark, rewrite] of marks) sql = `replace(${sql}, ${c.d.string(mark)}, ${c.d.string(rewrite)})`;
  return sql;
}

/**
 * The bytes of a base64 text as a JSON array of longs (0-255); null when the text is no base64. The
 * hex text is cut into pairs in one pass: reading it by position inside a lambda copied it per byte
 * (1.4 s for a 20,000-character text, past a minute for 100,000, uninterruptible).
 */
function base64Bytes(c: SqlCall): string {
  const bytes = `list_transform(regexp_extract_all(h, '..'), p -> CAST(('0x' || p) AS BIGINT))`;
  return `list_transform([hex(${duckTry(c.str(0), (v) => `from_base64(${v})`)})], h -> CASE WHEN h IS NULL THEN NULL ELSE to_json(${bytes}) END)[1]`;
}

/**
 * base64_encode_fromguid: the GUID's 16 bytes as .NET lays them out (the first three groups little
 * endian, the page's printed example shows it) in base64.
 */
function guidBase64(c: SqlCall): string {
  const g = `replace(${c.str(0)}, '-', '')`;
  const at = (start: number, n = 2): string => `substr(${g}, ${start}, ${n})`;
  const hex = [at(7), at(5), at(3), at(1), at(11), at(9), at(15), at(13), at(17, 16)].join(' || ');
  return c.d.name === 'duckdb' ? `to_base64(unhex(${hex}))` : `to_base64(from_hex(${hex}))`;
}

export const TEXT_V5_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'base64_decode_toarray',
    family: 'string',
    summary: 'The bytes a base64 text decodes to, as a dynamic array of longs; null when the text is no base64.',
    signatures: [{ params: [{ name: 'base64_string', type: 'string' }], result: 'dynamic' }],
    duckdb: base64Bytes,
    timestream: null,
  },
  {
    name: 'base64_encode_fromguid',
    family: 'string',
    summary: "The GUID's 16 bytes (in .NET's order: the first three groups little endian) as base64.",
    signatures: [{ params: [{ name: 'guid', type: 'guid' }], result: 'string' }],
    duckdb: guidBase64,
    timestream: guidBase64,
  },
  {
    name: 'replace_strings',
    family: 'string',
    summary:
      'The text with each of a constant array of lookups replaced by the rewrite at its index; earlier lookups first, matches never overlap.',
    signatures: [
      {
        params: [
          { name: 'text', type: 'string' },
          { name: 'lookups', type: 'dynamic', constant: true },
          { name: 'rewrites', type: 'dynamic', constant: true },
        ],
        result: 'string',
      },
    ],
    check: lookupsCheck,
    duckdb: replaceStrings,
    timestream: replaceStrings,
  },
];

const pred = { name: 'predicate', type: 'bool' as const };

/** hll_if: the sketch hll() makes (functions-v4-sketch.ts: the exact distinct values) of the rows where predicate holds. */
const hllIf = (c: SqlCall): string => hllSketch(c, `coalesce(${c.a[1]}, FALSE)`);

export const AGGREGATIONS_V5: readonly AggregateFunction[] = [
  {
    name: 'hll_if',
    family: 'aggregation',
    summary: 'The hll() sketch of expr over the rows where predicate holds, for dcount_hll() and hll_merge().',
    defaultName: (n) => `hll_if_${n}`,
    signatures: [
      {
        params: [
          { name: 'expr', type: 'any' },
          pred,
          { name: 'accuracy', type: 'integer', optional: true, constant: true },
        ],
        result: 'dynamic',
      },
    ],
    duckdb: hllIf,
    timestream: hllIf,
  },
  {
    name: 'count_distinct',
    family: 'aggregation',
    summary: 'The exact number of distinct non-null values of expr.',
    defaultName: (n) => `count_distinct_${n}`,
    signatures: [{ params: [{ name: 'expr', type: 'any' }], result: 'long' }],
    duckdb: (c) => `count(DISTINCT ${distinctValue(c)})`,
    timestream: (c) => `count(DISTINCT ${distinctValue(c)})`,
  },
  {
    name: 'count_distinctif',
    family: 'aggregation',
    summary: 'The exact number of distinct non-null values of expr over the rows where predicate holds.',
    defaultName: (n) => `count_distinctif_${n}`,
    signatures: [{ params: [{ name: 'expr', type: 'any' }, pred], result: 'long' }],
    duckdb: (c) => `count(DISTINCT CASE WHEN ${c.a[1]} THEN ${distinctValue(c)} END)`,
    timestream: (c) => `count(DISTINCT CASE WHEN ${c.a[1]} THEN ${distinctValue(c)} END)`,
  },
  {
    name: 'make_bag_if',
    family: 'aggregation',
    summary:
      'The property bags of expr where predicate holds merged into one, at most maxSize keys (the first ones; for a key in several rows, its first value); other values skipped.',
    defaultName: (n) => `bag_${n}`,
    signatures: [
      {
        params: [
          { name: 'expr', type: 'dynamic' },
          pred,
          { name: 'maxSize', type: 'integer', optional: true, constant: true },
        ],
        result: 'dynamic',
      },
    ],
    check: maxSizeCheck(2),
    duckdb: (c) =>
      `coalesce(${firstWinsMerge(`list(${bagAsMap(c.a[0]!)}) FILTER (WHERE json_type(${c.a[0]}) = 'OBJECT' AND ${c.a[1]})`, c.a[2])}, JSON '{}')`,
    timestream: null,
  },
];
