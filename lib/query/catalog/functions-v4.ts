// Functions Kusto users write that earlier family files lack: range() as the array-returning scalar
// (the tabular `range` operator is parsed elsewhere: a call in an expression is this function),
// parse_version, to_utf8, and the bitwise aggregations binary_all_*. pack_all and
// bag_pack_columns are in functions-v4-pack.ts, the sketches in functions-v4-sketch.ts.
import type { IrExpr, KqlType } from '../ir';
import type { SqlDialect } from '../sql/dialect';
import { datetimeJson } from './sql-helpers';
import { PACK_FUNCTIONS } from './functions-v4-pack';
import { SERIES_V4_FUNCTIONS } from './functions-v4-series';
import { SERIES_MORE_FUNCTIONS } from './functions-v4-series-more';
import { TEXT_V4_FUNCTIONS } from './functions-v4-text';
import { JSON_V4_FUNCTIONS } from './functions-v4-json';
import { SKETCH_AGGREGATIONS, SKETCH_FUNCTIONS } from './functions-v4-sketch';
import { both, type AggregateFunction, type ScalarFunction, type SqlCall } from './types';

/** The range function's cap (range-function docs: "a maximum of 1,048,576 (2^20) results"). */
const MAX_RANGE = 1_048_576;
const HOUR_MICROS = 3_600_000_000n;

/** A JSON array from a SQL list of JSON texts. */
const jsonArray = (d: SqlDialect, texts: string): string =>
  d.name === 'duckdb'
    ? `CAST('[' || array_to_string(${texts}, ',') || ']' AS JSON)`
    : `'[' || array_join(${texts}, ',') || ']'`;

/**
 * The indexes 0 .. n-1 as a SQL list. Timestream's sequence() makes at most 10,000 elements, so it
 * is built from chunks of 10,000 there; n is at least 1 where this is used.
 */
const indexes = (d: SqlDialect, n: string): string =>
  d.name === 'duckdb'
    ? `range(0, ${n})`
    : `flatten(transform(sequence(0, (${n} - 1) / 10000), j -> sequence(j * 10000, least(${n} - 1, j * 10000 + 9999))))`;

/**
 * range(start, stop [, step]): start, start + step, ... while not past stop, at most 2^20 elements;
 * a step of 0 or a null argument gives null; a step away from stop gives []. Steps are counted in
 * floating point (floor of the distance over the step), then each element is start + i * step.
 */
function rangeSql(c: SqlCall): string {
  const { d, args } = c;
  const kind: 'datetime' | 'timespan' | 'num' =
    args[0]!.type === 'datetime' ? 'datetime' : args[0]!.type === 'timespan' ? 'timespan' : 'num';
  const numeric = kind === 'num';
  const real = numeric && args.some((x) => x.type === 'real' || x.type === 'decimal');
  const step = c.a[2] ?? (numeric ? '1' : `${HOUR_MICROS}`);
  const at = (x: string): string => (kind === 'datetime' ? d.epochMicros(x) : x);
  const distance = `(CAST(${at(c.a[1]!)} AS DOUBLE) - CAST(${at(c.a[0]!)} AS DOUBLE))`;
  const n = `CAST(least(${MAX_RANGE}, greatest(0, floor(${distance} / ${step}) + 1)) AS BIGINT)`;
  const element =
    kind === 'datetime'
      ? datetimeJson(d, d.addMicros(c.a[0]!, `i * ${step}`))
      : kind === 'timespan'
        ? c.jsonOfType(`(${c.a[0]} + i * ${step})`, 'timespan')
        : real
          ? c.jsonOfType(`(CAST(${c.a[0]} AS DOUBLE) + i * CAST(${step} AS DOUBLE))`, 'real')
          : c.jsonOfType(`(CAST(${c.a[0]} AS BIGINT) + i * CAST(${step} AS BIGINT))`, 'long');
  const map = d.name === 'duckdb' ? 'list_transform' : 'transform';
  // Longs on DuckDB: the list's own text ("[1, 2, 3]", no NaN or infinity among longs) without its
  // spaces is the JSON array, much cheaper than one to_json per element (range() of 2^20 values met the test stack's time limit).
  const longs =
    d.name === 'duckdb' && numeric && !real
      ? `CAST(replace(CAST(list_transform(${indexes(d, n)}, i -> CAST(${c.a[0]} AS BIGINT) + i * CAST(${step} AS BIGINT)) AS VARCHAR), ' ', '') AS JSON)`
      : undefined;
  const empty = d.name === 'duckdb' ? `JSON '[]'` : `'[]'`;
  const nulls = [...c.a, step].map((x) => `${x} IS NULL`).join(' OR ');
  return `CASE WHEN ${nulls} OR ${step} = 0 THEN NULL WHEN ${n} = 0 THEN ${empty} ELSE ${longs ?? jsonArray(d, `${map}(${indexes(d, n)}, i -> ${element})`)} END`;
}

/**
 * parse_version: one to four dot-separated parts of 1..8 digits, each padded to 8 digits, missing
 * trailing parts 0 (parse_version docs); anything else is null. DECIMAL(38,0) keeps every digit, so
 * two versions compare exactly.
 */
const VERSION = `'^[0-9]{1,8}([.][0-9]{1,8}){0,3}$'`;
const parseVersion = (c: SqlCall): string => {
  const s = c.a[0]!;
  if (c.d.name === 'duckdb') {
    const digits = `array_to_string(list_transform(string_split(${s}, '.'), p -> lpad(p, 8, '0')), '') || repeat('0', 8 * (4 - len(string_split(${s}, '.'))))`;
    return `CASE WHEN regexp_matches(${s}, ${VERSION}) THEN CAST(${digits} AS DECIMAL(38, 0)) END`;
  }
  const digits = `array_join(transform(split(${s}, '.'), p -> lpad(p, 8, '0')), '') || rpad('', 8 * (4 - cardinality(split(${s}, '.'))), '0')`;
  return `CASE WHEN regexp_like(${s}, ${VERSION}) THEN CAST(${digits} AS DECIMAL(38, 0)) END`;
};

const same = (args: readonly IrExpr[]): KqlType => (args[0]!.type === 'int' ? 'int' : 'long');

const bitwise = (name: string, op: 'or' | 'and' | 'xor'): AggregateFunction => ({
  name,
  family: 'aggregation',
  summary: `The bitwise ${op.toUpperCase()} of the values of expr (binary-all-${op} docs).`,
  // Named as its argument (Kusto.Language's ResultNameKind for binary_all_*): binary_all_or(num) -> num.
  defaultName: (n) => n,
  signatures: [{ params: [{ name: 'expr', type: 'integer' }], result: same }],
  duckdb: ({ a }) => `bit_${op}(${a[0]})`,
  // Trino has bitwise_or_agg and bitwise_and_agg, no xor aggregation.
  timestream: op === 'xor' ? null : ({ a }) => `bitwise_${op}_agg(${a[0]})`,
});

export const FUNCTIONS_V4: readonly ScalarFunction[] = [
  {
    name: 'range',
    family: 'array',
    summary: 'A dynamic array start, start + step, ... up to stop (at most 2^20 elements); step 1, or 1h for times.',
    signatures: [
      {
        params: [
          { name: 'start', type: 'number' },
          { name: 'stop', type: 'number' },
          { name: 'step', type: 'number', optional: true },
        ],
        result: 'dynamic',
      },
      {
        params: [
          { name: 'start', type: 'datetime' },
          { name: 'stop', type: 'datetime' },
          { name: 'step', type: 'timespan', optional: true },
        ],
        result: 'dynamic',
      },
      {
        params: [
          { name: 'start', type: 'timespan' },
          { name: 'stop', type: 'timespan' },
          { name: 'step', type: 'timespan', optional: true },
        ],
        result: 'dynamic',
      },
    ],
    ...both(rangeSql),
  },
  {
    name: 'parse_version',
    family: 'string',
    summary: 'A comparable decimal of a version of one to four dot-separated parts of up to 8 digits; null otherwise.',
    signatures: [{ params: [{ name: 'version', type: 'string' }], result: 'decimal' }],
    ...both(parseVersion),
  },
  {
    name: 'gamma',
    family: 'math',
    summary: "The gamma function (infinity at 0, NaN at negative integers, as C's tgamma).",
    signatures: [{ params: [{ name: 'x', type: 'number' }], result: 'real' }],
    // DuckDB raises an error at 0; Timestream has no gamma function.
    duckdb: ({ a, d }) => `CASE WHEN ${a[0]} = 0 THEN ${d.infinity(false)} ELSE gamma(CAST(${a[0]} AS DOUBLE)) END`,
    timestream: null,
  },
  {
    name: 'loggamma',
    family: 'math',
    summary: 'The natural logarithm of the absolute value of the gamma function (infinity at 0 and negative integers).',
    signatures: [{ params: [{ name: 'x', type: 'number' }], result: 'real' }],
    duckdb: ({ a, d }) => `CASE WHEN ${a[0]} = 0 THEN ${d.infinity(false)} ELSE lgamma(CAST(${a[0]} AS DOUBLE)) END`,
    timestream: null,
  },
  ...PACK_FUNCTIONS,
  ...SKETCH_FUNCTIONS,
  ...SERIES_V4_FUNCTIONS,
  ...SERIES_MORE_FUNCTIONS,
  ...TEXT_V4_FUNCTIONS,
  ...JSON_V4_FUNCTIONS,
];

export const AGGREGATIONS_V4: readonly AggregateFunction[] = [
  bitwise('binary_all_or', 'or'),
  bitwise('binary_all_and', 'and'),
  bitwise('binary_all_xor', 'xor'),
  ...SKETCH_AGGREGATIONS,
];
