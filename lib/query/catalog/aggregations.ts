// Aggregations of summarize beyond the core ones of lib/query/aggregates.ts (count, sum, avg, min,
// max, dcount, percentile(s), arg_max/arg_min, make_list/make_set, stdev, take_any, countif, sumif,
// avgif), each with its default column name.
import type { IrExpr } from '../ir';
import { distinctReal, type SqlDialect } from '../sql/dialect';
import { distinctInOrder } from '../sql/duckdb';
import { isNumeric } from '../types';
import { bagAsMap, distinctDuck, firstWinsMerge } from './arrays';
import type { AggregateFunction, SqlBuilder, SqlCall } from './types';
import { constantOf } from './types';

const x = { name: 'expr', type: 'scalar' as const };
const num = { name: 'expr', type: 'number' as const };
const pred = { name: 'predicate', type: 'bool' as const };
const maxSize = { name: 'maxSize', type: 'integer' as const, optional: true, constant: true };
/**
 * maxSize, when given as argument `index`, is between 1 and 1,048,576, as Kusto checks it (SEM0248:
 * "expects an integer in range [1..1048576]"); a negative limit would count from the end of the list.
 */
export const maxSizeCheck =
  (index: number) =>
  (args: readonly IrExpr[]): readonly [number, string] | undefined => {
    if (args.length <= index) return undefined;
    const v = constantOf(args[index]);
    return typeof v === 'bigint' && v >= 1n && v <= 1_048_576n
      ? undefined
      : [index, 'maxSize must be a constant integer between 1 and 1048576'];
  };

/** The value where the predicate holds, null elsewhere (aggregates skip nulls); a literal true (stdev(x) is stdevif(x, true)) needs no CASE. */
export const when = (c: SqlCall, value: number, predicate: number): string => {
  const p = c.args[predicate];
  return p?.kind === 'lit' && p.value === true ? c.a[value]! : `CASE WHEN ${c.a[predicate]} THEN ${c.a[value]} END`;
};

/**
 * The set of the elements of dynamic values, at most `max` of them: an array value gives its
 * elements, another value itself (the make_set page: make_set of an array column is
 * ["A1","A2","A3","C1","C2"]), each kept once, in the order they first come.
 */
function setOfDynamic(c: SqlCall, where: string, max: string | undefined): string {
  const v = c.a[0]!;
  if (c.d.name === 'duckdb') {
    const elements = `flatten(list(CASE WHEN json_type(${v}) = 'ARRAY' THEN CAST(${v} AS JSON[]) ELSE [${v}] END) FILTER (WHERE ${where}))`;
    const set = distinctDuck(`coalesce(${elements}, [])`);
    return `to_json(${max === undefined ? set : `list_slice(${set}, 1, ${max})`})`;
  }
  const elements = `flatten(coalesce(array_agg(coalesce(transform(try(CAST(json_parse(${v}) AS ARRAY(JSON))), e -> json_format(e)), ARRAY[${v}])) FILTER (WHERE ${where}), ARRAY[]))`;
  const set = `array_distinct(${elements})`;
  return `'[' || array_join(${max === undefined ? set : `slice(${set}, 1, ${max})`}, ',') || ']'`;
}

/** A JSON array of the non-null elements (distinct for sets), at most `max` of them. */
function listOf(c: SqlCall, filter: string, distinct: boolean, max: string | undefined): string {
  const { d, args } = c;
  const e = args[0]!;
  if (distinct && e.type === 'dynamic') {
    const notNull = `NOT ${d.dynIsNull(c.a[0]!)}`;
    return setOfDynamic(c, filter ? `${notNull} AND ${filter}` : notNull, max);
  }
  // A timespan as Kusto writes it inside dynamic values ("01:00:00"), not as its microseconds.
  const value = distinct ? distinctReal(c.a[0]!, e.type) : c.a[0]!;
  const element = e.type === 'timespan' ? c.jsonOfType(value, e.type) : d.jsonText(value, e.type);
  const notNull = e.type === 'dynamic' ? `NOT ${d.dynIsNull(c.a[0]!)}` : `${c.a[0]} IS NOT NULL`;
  const where = filter ? `${notNull} AND ${filter}` : notNull;
  if (max === undefined) return d.jsonArrayAgg(element, where, distinct, c.setsInOrder);
  if (d.name === 'duckdb') {
    const all = `list(${distinct && !c.setsInOrder ? 'DISTINCT ' : ''}${element}) FILTER (WHERE ${where})`;
    const kept = distinct && c.setsInOrder ? distinctInOrder(all) : all;
    return `CAST('[' || coalesce(array_to_string(list_slice(${kept}, 1, ${max}), ','), '') || ']' AS JSON)`;
  }
  return `'[' || coalesce(array_join(slice(array_agg(${distinct ? 'DISTINCT ' : ''}${element}) FILTER (WHERE ${where}), 1, ${max}), ','), '') || ']'`;
}

/** The percentiles asked for: constants after expr, or one constant dynamic array of them (percentiles_array docs). */
export const percentilesOf = (args: readonly IrExpr[]): unknown[] => {
  const rest = args.slice(1);
  if (rest.length === 1 && rest[0]!.type === 'dynamic') {
    const parsed: unknown = JSON.parse(String(constantOf(rest[0])));
    return Array.isArray(parsed) && parsed.length > 0 ? parsed : [NaN];
  }
  return rest.map((p) => (p.kind === 'lit' && isNumeric(p.type) ? Number(p.value) : NaN));
};

export const percentileCheck = (args: readonly IrExpr[]): readonly [number, string] | undefined => {
  const ok = percentilesOf(args).every((p) => typeof p === 'number' && p >= 0 && p <= 100);
  if (ok) return undefined;
  const i = args.findIndex(
    (p, k) => k > 0 && !(p.kind === 'lit' && isNumeric(p.type) && Number(p.value) >= 0 && Number(p.value) <= 100),
  );
  return [Math.max(i, 1), 'a percentile must be a constant between 0 and 100'];
};

const percentilesArray: SqlBuilder = (c) => {
  const { d, a } = c;
  const type = c.args[0]!.type;
  const values = percentilesOf(c.args).map((p) => d.percentile(a[0]!, Number(p) / 100));
  if (type === 'datetime' || type === 'timespan') {
    // Inside a dynamic array these are ISO text and [d.]hh:mm:ss text, as pack_array writes them.
    // A group without values gives null elements, as the numeric form's array does.
    const items = values
      .map((v) => `CASE WHEN ${v} IS NULL THEN 'null' ELSE ${c.jsonOfType(v, type)} END`)
      .join(" || ',' || ");
    return d.name === 'duckdb' ? `CAST('[' || ${items} || ']' AS JSON)` : `'[' || ${items} || ']'`;
  }
  return d.name === 'duckdb'
    ? `to_json([${values.join(', ')}])`
    : `json_format(CAST(ARRAY[${values.join(', ')}] AS JSON))`;
};

/**
 * Any value of expr where the predicate holds. A string prefers a non-empty one, "if such value is
 * present" (take_any page: also take_any(s), which is take_anyif(s, true)); none gives "", never null.
 * A dynamic prefers a non-null one: a JSON null element (of mv-expand, parse_json) is no SQL NULL.
 */
function anyWhen(c: SqlCall, fn: string): string {
  const type = c.args[0]!.type;
  if (type !== 'string' && type !== 'dynamic') return `${fn}(${when(c, 0, 1)})`;
  const p = c.args[1];
  const present = type === 'string' ? `${c.a[0]} <> ''` : `NOT ${c.d.dynIsNull(c.a[0]!)}`;
  const holds = p?.kind === 'lit' && p.value === true ? present : `${c.a[1]} AND ${present}`;
  const any = `${fn}(CASE WHEN ${holds} THEN ${c.a[0]} END)`;
  return type === 'string' ? `coalesce(${any}, '')` : any;
}

const same = (args: readonly IrExpr[]) => args[0]!.type;
const agg = (entry: Omit<AggregateFunction, 'family'>): AggregateFunction => ({ ...entry, family: 'aggregation' });
/**
 * Beyond this magnitude DuckDB's variance can overflow inside (its sum of squared deviations), and it
 * then stops the query ("VARSAMP is out of range"); below it, not for any row count.
 */
const HUGE = '1E144';

/**
 * A variance or standard deviation of finite values of which one is at least HUGE: computed on the
 * values times 2^-600 (exact: a power of two) and scaled back in two steps (2^1200 is no double), so
 * the result is what IEEE arithmetic gives, Kusto's .NET doubles: +Infinity when the variance is
 * beyond the largest double (of 1e200 and 3e200), else finite (their standard deviation, 1.41e200).
 */
function scaledStatistic(stat: string, v: string): string {
  const [down, up] = ['2.409919865102884e-181', '4.149515568880993e180']; // 2^-600, 2^600
  const scaled = `coalesce(${stat}(CASE WHEN isfinite(${v}) THEN ${v} * ${down} END), 0E0) * ${up}`;
  return stat.startsWith('var') ? `${scaled} * ${up}` : scaled;
}

const statistic = (
  name: string,
  prefix: string,
  summary: string,
  fn: (d: SqlDialect) => string,
  conditional: boolean,
): AggregateFunction =>
  agg({
    name,
    summary,
    defaultName: (n) => `${prefix}_${n}`,
    signatures: [{ params: conditional ? [num, pred] : [num], result: 'real' }],
    ...(() => {
      const build: SqlBuilder = (c) =>
        `coalesce(${fn(c.d)}(${conditional ? when(c, 0, 1) : `CAST(${c.a[0]} AS DOUBLE)`}), 0E0)`;
      // DuckDB stops the query on a NaN or an infinity ("VARSAMP is out of range"); in Kusto's IEEE
      // arithmetic one of them makes the result NaN, as it makes sum and avg NaN.
      const duckdb: SqlBuilder = (c) => {
        if (c.args[0]!.type !== 'real') return build(c);
        const v = conditional ? when(c, 0, 1) : c.a[0]!;
        const stat = fn(c.d);
        // All branches are computed: each statistic sees only values it cannot overflow on.
        const moderate = `coalesce(${stat}(CASE WHEN abs(${v}) < ${HUGE} THEN ${v} END), 0E0)`;
        return `CASE WHEN bool_or(NOT isfinite(${v})) THEN ${c.d.nan()} WHEN max(abs(${v})) >= ${HUGE} THEN ${scaledStatistic(stat, v)} ELSE ${moderate} END`;
      };
      return { duckdb, timestream: build };
    })(),
  });

/**
 * What count(DISTINCT ...) counts of the first argument: a dynamic value by its text (JSON values
 * have no equality in SQL), a null one (SQL NULL or JSON null) as NULL, since the distinct counts
 * ignore nulls (the null values page: dcount, dcountif, count_distinct); tostring() alone would count
 * it as "".
 */
export const distinctValue = (c: SqlCall): string =>
  c.args[0]!.type === 'dynamic' ? `CASE WHEN NOT ${c.d.dynIsNull(c.a[0]!)} THEN ${c.str(0)} END` : c.a[0]!;

export const AGGREGATIONS: readonly AggregateFunction[] = [
  agg({
    name: 'dcountif',
    summary: 'The number of distinct values of expr over the rows where predicate holds.',
    defaultName: (n) => `dcountif_${n}`,
    signatures: [
      {
        params: [
          { name: 'expr', type: 'any' },
          pred,
          { name: 'accuracy', type: 'integer', optional: true, constant: true },
        ],
        result: 'long',
      },
    ],
    duckdb: (c) => `count(DISTINCT CASE WHEN ${c.a[1]} THEN ${distinctValue(c)} END)`,
    timestream: (c) => `count(DISTINCT CASE WHEN ${c.a[1]} THEN ${distinctValue(c)} END)`,
  }),
  ...(['make_list_if', 'make_set_if'] as const).map((name) =>
    agg({
      name,
      summary: `A dynamic array of the ${name === 'make_set_if' ? 'distinct ' : ''}values of expr where predicate holds, at most maxSize${name === 'make_set_if' ? " (an array's elements, not the array)" : ''}.`,
      defaultName: (n) => `${name === 'make_set_if' ? 'set' : 'list'}_${n}`,
      signatures: [{ params: [{ name: 'expr', type: 'any' }, pred, maxSize], result: 'dynamic' }],
      check: maxSizeCheck(2),
      duckdb: (c) => listOf(c, c.a[1]!, name === 'make_set_if', c.a[2]),
      timestream: (c) => listOf(c, c.a[1]!, name === 'make_set_if', c.a[2]),
    }),
  ),
  agg({
    name: 'make_bag',
    summary:
      'The property bags of expr merged into one, at most maxSize keys (the first ones; for a key in several rows, its first value). The deprecated make_dictionary keeps 128 by default.',
    defaultName: (n) => `bag_${n}`,
    signatures: [{ params: [{ name: 'expr', type: 'dynamic' }, maxSize], result: 'dynamic' }],
    check: maxSizeCheck(1),
    duckdb: (c) =>
      `coalesce(${firstWinsMerge(`list(${bagAsMap(c.a[0]!)}) FILTER (WHERE json_type(${c.a[0]}) = 'OBJECT')`, c.a[1])}, JSON '{}')`,
    timestream: null,
  }),
  agg({
    name: 'take_anyif',
    summary: 'Any non-null value of expr where predicate holds.',
    // take_anyif(EventType, ...) is named EventType (the page's printed output); an expression: ColumnN.
    defaultName: (n) => n,
    signatures: [{ params: [{ name: 'expr', type: 'any' }, pred], result: same }],
    duckdb: (c) => anyWhen(c, 'any_value'),
    timestream: (c) => anyWhen(c, 'arbitrary'),
  }),
  ...(['minif', 'maxif'] as const).map((name) =>
    agg({
      name,
      summary: `The ${name === 'minif' ? 'smallest' : 'largest'} value of expr where predicate holds.`,
      defaultName: (n) => `${name}_${n}`,
      signatures: [{ params: [x, pred], result: same }],
      // A NaN is skipped, as min() and max() skip it (DuckDB would order it above every number).
      duckdb: (c) => {
        const value = when(c, 0, 1);
        const real = c.args[0]!.type === 'real' || c.args[0]!.type === 'decimal';
        return `${name === 'minif' ? 'min' : 'max'}(${real ? `nullif(${value}, ${c.d.nan()})` : value})`;
      },
      timestream: (c) => `${name === 'minif' ? 'min' : 'max'}(${when(c, 0, 1)})`,
    }),
  ),
  agg({
    name: 'percentiles_array',
    summary: 'The nearest-rank percentiles of expr as one dynamic array.',
    defaultName: (n) => `percentiles_${n}`,
    // Of datetimes and timespans too, as percentile() (Kusto.Language types all three).
    signatures: [num, { name: 'expr', type: 'datetime' as const }, { name: 'expr', type: 'timespan' as const }].flatMap(
      (expr) => [
        { params: [expr, { name: 'percentile', type: 'number', constant: true }], variadic: true, result: 'dynamic' },
        { params: [expr, { name: 'percentiles', type: 'dynamic', constant: true }], result: 'dynamic' },
      ],
    ),
    check: percentileCheck,
    duckdb: percentilesArray,
    timestream: percentilesArray,
  }),
  statistic('variance', 'variance', 'The sample variance of expr.', () => 'var_samp', false),
  statistic('varianceif', 'varianceif', 'The sample variance of expr where predicate holds.', () => 'var_samp', true),
  statistic('variancep', 'variancep', 'The population variance of expr.', () => 'var_pop', false),
  // variancepif page: "the variance" links to variancep, the population variance. Its printed 850 for the even
  // numbers 2 .. 100 is their sample variance (the population one is 833): a known gap of its conformance case.
  statistic(
    'variancepif',
    'variancepif',
    'The population variance of expr where predicate holds.',
    () => 'var_pop',
    true,
  ),
  statistic('stdevp', 'stdevp', 'The population standard deviation of expr.', () => 'stddev_pop', false),
  statistic(
    'stdevif',
    'stdevif',
    'The sample standard deviation of expr where predicate holds.',
    () => 'stddev_samp',
    true,
  ),
];
