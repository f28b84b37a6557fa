// Sketch aggregations and their functions: hll / hll_merge / dcount_hll and tdigest / tdigest_merge /
// percentile_tdigest / percentiles_array_tdigest / rank_tdigest. Kusto's sketches give estimates; ours
// are exact, so every answer is within Kusto's documented error:
// - an hll sketch is the JSON array of the distinct values (as JSON texts), dcount_hll its length;
// - a tdigest sketch is {"type": T, "values": [...]}: every non-null value in ascending order as a
//   number (datetimes and timespans as microseconds), T the KQL type the values came from.
// Their size grows with the distinct values (hll) or the rows (tdigest) of a group: the query's
// result size and engine memory limits bound them, as they bound make_list.
// A percentile is the nearest rank, ceil(p / 100 * n) (the value percentile() gives), and a rank is
// the count of values at or below the value (rank-tdigest-function docs).
import type { IrExpr, KqlType } from '../ir';
import { typeNamed } from '../types';
import { MAX_REPEAT } from './arrays-reshape';
import { distinctReal } from '../sql/dialect';
import { datetimeJson } from './sql-helpers';
import { constantOf, type AggregateFunction, type ScalarFunction, type SqlCall } from './types';

const dyn = (name: string) => ({ name, type: 'dynamic' as const });
const sketchType = (t: KqlType): string =>
  t === 'int' || t === 'long' ? 'long' : t === 'datetime' || t === 'timespan' ? t : 'real';

/**
 * The type of a merge of null sketches only: no value gave it one, so it is dynamic (Kusto.Language
 * types what percentile_tdigest() reads from any sketch dynamic), not a real no value had.
 */
const NO_TYPE = 'dynamic';

/** A value as the DOUBLE a tdigest keeps. */
const asNumber = (c: SqlCall, i: number): string =>
  c.args[i]!.type === 'datetime' ? c.d.epochMicros(c.a[i]!) : `CAST(${c.a[i]} AS DOUBLE)`;

/** The sorted values and the type of a tdigest sketch in SQL. */
const values = (c: SqlCall, s: string): string =>
  c.d.name === 'duckdb'
    ? `TRY_CAST(json_extract(${s}, '$.values') AS DOUBLE[])`
    : `try(CAST(json_extract(${s}, '$.values') AS ARRAY(DOUBLE)))`;
const typeOf = (c: SqlCall, s: string): string =>
  c.d.name === 'duckdb' ? `json_extract_string(${s}, '$.type')` : `json_extract_scalar(${s}, '$.type')`;

/** A tdigest's JSON text from its type (SQL text) and a sorted SQL list of DOUBLE. */
function digest(c: SqlCall, type: string, list: string): string {
  const json = c.d.name === 'duckdb' ? `CAST(to_json(${list}) AS VARCHAR)` : `json_format(CAST(${list} AS JSON))`;
  const text = `'{"type":"' || ${type} || '","values":' || ${json} || '}'`;
  return c.d.name === 'duckdb' ? `CAST(${text} AS JSON)` : text;
}

/** The value of nearest rank ceil(p * n) (p a fraction SQL text) of sorted list v, as DOUBLE. */
const nearestRank = (c: SqlCall, v: string, p: string): string =>
  c.d.name === 'duckdb'
    ? `${v}[CAST(greatest(1, ceil(${p} * len(${v}))) AS BIGINT)]`
    : `element_at(${v}, CAST(greatest(1, ceiling(${p} * cardinality(${v}))) AS BIGINT))`;

/** A DOUBLE taken from a tdigest as the type the caller asked for. */
function typed(c: SqlCall, x: string, type: KqlType): string {
  switch (type) {
    case 'datetime':
      return c.d.fromEpochMicros(`CAST(${x} AS BIGINT)`);
    case 'timespan':
    case 'long':
    case 'int':
      return `CAST(${x} AS BIGINT)`;
    default:
      return x;
  }
}

/** A DOUBLE taken from a tdigest as the JSON text of a value of the sketch's own type. */
const asJson = (c: SqlCall, x: string, type: string): string =>
  `CASE ${type} WHEN 'datetime' THEN ${datetimeJson(c.d, typed(c, x, 'datetime'))} ` +
  `WHEN 'timespan' THEN ${c.jsonOfType(typed(c, x, 'timespan'), 'timespan')} ` +
  `WHEN 'long' THEN ${c.jsonOfType(typed(c, x, 'long'), 'long')} ELSE ${c.jsonOfType(x, 'real')} END`;

/** The type asked for by a trailing typeof(T) (passed on as its name), if any. */
const askedType = (args: readonly IrExpr[]): KqlType | undefined => {
  const last = args.at(-1);
  return last?.type === 'string' && args.length > 2 ? typeNamed(String(constantOf(last))) : undefined;
};

/** The percentiles (fractions) of percentiles_array_tdigest: constants, or one constant dynamic array. */
function fractions(args: readonly IrExpr[]): number[] {
  const ps = args.slice(1).filter((a) => a.type !== 'string');
  if (ps.length === 1 && ps[0]!.type === 'dynamic') {
    const parsed: unknown = JSON.parse(String(constantOf(ps[0])));
    return Array.isArray(parsed) ? parsed.map((p) => Number(p) / 100) : [NaN];
  }
  return ps.map((p) => Number(constantOf(p)) / 100);
}

const checkPercentiles = (args: readonly IrExpr[]): readonly [number, string] | undefined => {
  const last = args.at(-1)!;
  if (last.type === 'string' && !typeNamed(String(constantOf(last))))
    return [args.length - 1, 'the last argument must be typeof(T) with a type name such as long or datetime'];
  return fractions(args).every((f) => f >= 0 && f <= 1) && fractions(args).length > 0
    ? undefined
    : [1, 'a percentile must be a constant between 0 and 100'];
};

const mergedValues = (c: SqlCall, lists: readonly string[]): string =>
  c.d.name === 'duckdb'
    ? `list_sort(flatten([${lists.map((s) => `coalesce(${values(c, s)}, [])`).join(', ')}]))`
    : `array_sort(flatten(ARRAY[${lists.map((s) => `coalesce(${values(c, s)}, CAST(ARRAY[] AS ARRAY(DOUBLE)))`).join(', ')}]))`;

const mergedHll = (c: SqlCall, lists: readonly string[]): string => {
  if (c.d.name === 'duckdb') {
    const texts = lists.map((s) => `coalesce(list_transform(TRY_CAST(${s} AS JSON[]), e -> CAST(e AS VARCHAR)), [])`);
    return `CAST('[' || array_to_string(list_distinct(flatten([${texts.join(', ')}])), ',') || ']' AS JSON)`;
  }
  const texts = lists.map(
    (s) => `coalesce(transform(try(CAST(json_parse(${s}) AS ARRAY(JSON))), e -> json_format(e)), ARRAY[])`,
  );
  return `'[' || array_join(array_distinct(flatten(ARRAY[${texts.join(', ')}])), ',') || ']'`;
};

export const SKETCH_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'dcount_hll',
    family: 'array',
    summary: "The distinct count of an hll()/hll_merge() sketch (exact here; within Kusto's estimate error).",
    signatures: [{ params: [dyn('hll')], result: 'long' }],
    duckdb: ({ a }) => `CASE WHEN json_type(${a[0]}) = 'ARRAY' THEN CAST(json_array_length(${a[0]}) AS BIGINT) END`,
    timestream: ({ a }) => `CAST(json_array_length(${a[0]}) AS BIGINT)`,
  },
  {
    name: 'hll_merge',
    family: 'array',
    summary: 'The union of two or more hll() sketches (the scalar form; hll_merge(x) in summarize merges rows).',
    signatures: [{ params: [dyn('hll1'), dyn('hll2')], variadic: true, result: 'dynamic' }],
    duckdb: (c) => mergedHll(c, c.a),
    timestream: (c) => mergedHll(c, c.a),
  },
  {
    name: 'tdigest_merge',
    aliases: ['merge_tdigest'],
    family: 'array',
    summary:
      'Two or more tdigest() sketches merged into one (the scalar form; tdigest_merge(x) in summarize merges rows).',
    signatures: [{ params: [dyn('tdigest1'), dyn('tdigest2')], variadic: true, result: 'dynamic' }],
    duckdb: (c) => digest(c, `coalesce(${c.a.map((s) => typeOf(c, s)).join(', ')})`, mergedValues(c, c.a)),
    timestream: (c) => digest(c, `coalesce(${c.a.map((s) => typeOf(c, s)).join(', ')})`, mergedValues(c, c.a)),
  },
  {
    name: 'percentile_tdigest',
    family: 'array',
    summary: 'The nearest-rank percentile of a tdigest() sketch; typeof(T) gives a T, without it the value is dynamic.',
    signatures: [
      {
        params: [dyn('tdigest'), { name: 'percentile', type: 'number', constant: true }],
        result: 'dynamic',
      },
      {
        params: [
          dyn('tdigest'),
          { name: 'percentile', type: 'number', constant: true },
          { name: 'typeLiteral', type: 'string', constant: true },
        ],
        result: (args) => askedType(args) ?? 'dynamic',
      },
    ],
    check: checkPercentiles,
    ...(() => {
      const build = (c: SqlCall): string => {
        const v = values(c, c.a[0]!);
        const x = nearestRank(c, v, c.d.real(fractions(c.args)[0]!));
        const t = askedType(c.args);
        const value = t ? typed(c, x, t) : asJson(c, x, typeOf(c, c.a[0]!));
        const cast = !t && c.d.name === 'duckdb' ? `CAST(${value} AS JSON)` : value;
        return c.d.name === 'duckdb'
          ? `CASE WHEN len(${v}) > 0 THEN ${cast} END`
          : `CASE WHEN cardinality(${v}) > 0 THEN ${cast} END`;
      };
      return { duckdb: build, timestream: build };
    })(),
  },
  {
    name: 'percentiles_array_tdigest',
    aliases: ['percentile_array_tdigest'],
    family: 'array',
    summary: 'The nearest-rank percentiles of a tdigest() sketch, as a dynamic array.',
    signatures: [
      {
        params: [dyn('tdigest'), { name: 'percentile', type: 'number', constant: true }],
        variadic: true,
        result: 'dynamic',
      },
      {
        params: [
          dyn('tdigest'),
          { name: 'percentiles', type: 'dynamic', constant: true },
          { name: 'typeLiteral', type: 'string', constant: true, optional: true },
        ],
        result: 'dynamic',
      },
    ],
    check: checkPercentiles,
    ...(() => {
      const build = (c: SqlCall): string => {
        const v = values(c, c.a[0]!);
        const t = askedType(c.args);
        const type = typeOf(c, c.a[0]!);
        const items = fractions(c.args).map((f) => {
          const x = nearestRank(c, v, c.d.real(f));
          const one =
            t === 'datetime'
              ? datetimeJson(c.d, typed(c, x, t))
              : t
                ? c.jsonOfType(typed(c, x, t), t)
                : asJson(c, x, type);
          return `coalesce(${one}, 'null')`;
        });
        const text = `'[' || ${items.join(" || ',' || ")} || ']'`;
        return c.d.name === 'duckdb' ? `CAST(${text} AS JSON)` : text;
      };
      return { duckdb: build, timestream: build };
    })(),
  },
  {
    name: 'percentrank_tdigest',
    family: 'array',
    summary: 'The percentage of the values of a tdigest() sketch at or below value.',
    signatures: [{ params: [dyn('tdigest'), { name: 'value', type: 'scalar' }], result: 'real' }],
    duckdb: (c) => {
      const v = values(c, c.a[0]!);
      return `CASE WHEN len(${v}) > 0 THEN len(list_filter(${v}, x -> x <= ${asNumber(c, 1)})) * 100E0 / len(${v}) END`;
    },
    timestream: (c) => {
      const v = values(c, c.a[0]!);
      return `CASE WHEN cardinality(${v}) > 0 THEN cardinality(filter(${v}, x -> x <= ${asNumber(c, 1)})) * 100E0 / cardinality(${v}) END`;
    },
  },
  {
    name: 'rank_tdigest',
    family: 'array',
    summary: 'How many values of a tdigest() sketch are at or below value, as real (a rank estimate).',
    // real, as Kusto.Language declares it: the rank is an estimate (the page prints 685, no type).
    signatures: [{ params: [dyn('tdigest'), { name: 'value', type: 'scalar' }], result: 'real' }],
    duckdb: (c) => `CAST(len(list_filter(${values(c, c.a[0]!)}, x -> x <= ${asNumber(c, 1)})) AS DOUBLE)`,
    timestream: (c) => `CAST(cardinality(filter(${values(c, c.a[0]!)}, x -> x <= ${asNumber(c, 1)})) AS DOUBLE)`,
  },
];

/** The rows a weighted tdigest counts: a value, and a weight of at least 1 (as percentilew skips the others). */
const weighted = (c: SqlCall): string => `${c.a[0]} IS NOT NULL AND ${c.a[1]} >= 1`;

/** A weight is held as that many copies of the value: a bound, as repeat() has, keeps one row's copies in memory. */
const TOO_HEAVY = `tdigest(): a weight is more than ${MAX_REPEAT}, the most copies of a value a sketch holds here`;

/**
 * A sketch over no rows (an empty input without `by`) is null: the summarize page's defaults give 0
 * or [] only to the aggregations it lists, "all others" null, and it prints hll() and tdigest() of
 * an empty table as empty cells. A group of null values only still has its empty sketch.
 */
export const noRowsNull = (sketch: string): string => `CASE WHEN count(*) = 0 THEN NULL ELSE ${sketch} END`;

/** hll's sketch: the distinct values (as JSON texts) of the rows where `where` holds. */
export function hllSketch(c: SqlCall, where?: string): string {
  const e = c.args[0]!;
  const notNull = e.type === 'dynamic' ? `NOT ${c.d.dynIsNull(c.a[0]!)}` : `${c.a[0]} IS NOT NULL`;
  const text = c.d.jsonText(distinctReal(c.a[0]!, e.type), e.type);
  return noRowsNull(c.d.jsonArrayAgg(text, where ? `${notNull} AND ${where}` : notNull, true));
}

const sketchAgg = (entry: Omit<AggregateFunction, 'family'>): AggregateFunction => ({
  ...entry,
  family: 'aggregation',
});

export const SKETCH_AGGREGATIONS: readonly AggregateFunction[] = [
  sketchAgg({
    name: 'hll',
    summary:
      'A sketch of the distinct values of expr for dcount_hll() and hll_merge() (exact: the distinct values); null over no rows (an empty input without by), as the summarize page prints it.',
    defaultName: (n) => `hll_${n}`,
    signatures: [
      {
        params: [
          { name: 'expr', type: 'any' },
          { name: 'accuracy', type: 'integer', optional: true, constant: true },
        ],
        result: 'dynamic',
      },
    ],
    duckdb: (c) => hllSketch(c),
    timestream: (c) => hllSketch(c),
  }),
  sketchAgg({
    name: 'hll_merge',
    summary: 'The union of the hll() sketches of the rows.',
    defaultName: (n) => `hll_merge_${n}`,
    signatures: [{ params: [dyn('hll')], result: 'dynamic' }],
    duckdb: ({ a }) =>
      noRowsNull(
        `CAST('[' || array_to_string(list_distinct(flatten(coalesce(list(list_transform(TRY_CAST(${a[0]} AS JSON[]), e -> CAST(e AS VARCHAR))), []))), ',') || ']' AS JSON)`,
      ),
    timestream: ({ a }) =>
      noRowsNull(
        `'[' || array_join(array_distinct(flatten(coalesce(array_agg(transform(try(CAST(json_parse(${a[0]}) AS ARRAY(JSON))), e -> json_format(e))) FILTER (WHERE ${a[0]} IS NOT NULL), ARRAY[]))), ',') || ']'`,
      ),
  }),
  sketchAgg({
    name: 'tdigest',
    summary: `A sketch of the values of expr for percentile_tdigest() and rank_tdigest() (exact: the sorted values; null over no rows, as the summarize page prints it); with a weight, each value counted weight times (rows of weight below 1 skipped; at most ${MAX_REPEAT} a row on DuckDB), so percentile_tdigest gives percentilew's answer.`,
    defaultName: (n) => `tdigest_${n}`,
    signatures: [
      {
        params: [
          { name: 'expr', type: 'any' },
          { name: 'weight', type: 'integer', optional: true },
        ],
        result: 'dynamic',
      },
    ],
    check: (args) =>
      ['int', 'long', 'real', 'decimal', 'datetime', 'timespan'].includes(args[0]!.type)
        ? undefined
        : [
            0,
            'tdigest() needs a number, datetime or timespan; convert a dynamic value first, e.g. tdigest(todouble(x))',
          ],
    duckdb: (c) => {
      const type = `'${sketchType(c.args[0]!.type)}'`;
      if (c.a[1] === undefined)
        return noRowsNull(
          digest(c, type, `coalesce(list_sort(list(${asNumber(c, 0)}) FILTER (WHERE ${c.a[0]} IS NOT NULL)), [])`),
        );
      // The CASE runs on every row before the FILTER drops those of weight below 1 (or null).
      const copies = `CASE WHEN ${c.a[1]} < 1 THEN [] WHEN ${c.a[1]} > ${MAX_REPEAT} THEN error(${c.d.string(TOO_HEAVY)}) ELSE list_resize([${asNumber(c, 0)}], CAST(${c.a[1]} AS BIGINT), ${asNumber(c, 0)}) END`;
      return noRowsNull(
        digest(c, type, `coalesce(list_sort(flatten(list(${copies}) FILTER (WHERE ${weighted(c)}))), [])`),
      );
    },
    timestream: (c) => {
      const type = `'${sketchType(c.args[0]!.type)}'`;
      if (c.a[1] === undefined)
        return noRowsNull(
          digest(
            c,
            type,
            `coalesce(array_sort(array_agg(${asNumber(c, 0)}) FILTER (WHERE ${c.a[0]} IS NOT NULL)), CAST(ARRAY[] AS ARRAY(DOUBLE)))`,
          ),
        );
      // Presto's repeat() refuses more than 10,000 copies itself (an engine error, as the bound above).
      const copies = `repeat(${asNumber(c, 0)}, CAST(greatest(${c.a[1]}, 0) AS INTEGER))`;
      return noRowsNull(
        digest(
          c,
          type,
          `coalesce(array_sort(flatten(array_agg(${copies}) FILTER (WHERE ${weighted(c)}))), CAST(ARRAY[] AS ARRAY(DOUBLE)))`,
        ),
      );
    },
  }),
  sketchAgg({
    name: 'tdigest_merge',
    aliases: ['merge_tdigest'],
    summary: 'The tdigest() sketches of the rows merged into one.',
    // The page's printed output: tdigest_merge(PreAggDamageProperty) -> merge_tdigests_PreAggDamageProperty.
    defaultName: (n) => `merge_tdigests_${n}`,
    signatures: [{ params: [dyn('tdigest')], result: 'dynamic' }],
    duckdb: (c) =>
      noRowsNull(
        digest(
          c,
          `coalesce(any_value(${typeOf(c, c.a[0]!)}), '${NO_TYPE}')`,
          `list_sort(flatten(coalesce(list(${values(c, c.a[0]!)}) FILTER (WHERE ${values(c, c.a[0]!)} IS NOT NULL), [])))`,
        ),
      ),
    timestream: (c) =>
      noRowsNull(
        digest(
          c,
          `coalesce(arbitrary(${typeOf(c, c.a[0]!)}), '${NO_TYPE}')`,
          `array_sort(flatten(coalesce(array_agg(${values(c, c.a[0]!)}) FILTER (WHERE ${values(c, c.a[0]!)} IS NOT NULL), ARRAY[])))`,
        ),
      ),
  }),
];
