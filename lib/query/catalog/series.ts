// Series functions (dynamic numeric arrays in, dynamic out), as users pair them with make-series:
// the interpolations series_fill_* (https://learn.microsoft.com/en-us/kusto/query/series-fill-linear-function
// and siblings), series_stats_dynamic and the element-wise arithmetic and comparisons. DuckDB works
// on the array as a JSON[] list bound once to a lambda parameter (`list_transform([v], l -> ...)[1]`),
// so the argument's SQL is written once. A missing value is a null element, or the element equal to
// the missing_value_placeholder argument when one is given (the docs' rule); elements that are not
// numbers count as null. The fills find each element's present neighbours with one sort per array.
// Timestream has no such list functions here: refused there with a 400.
import type { IrExpr } from '../ir';
import type { ScalarFunction, SqlCall } from './types';
import { bindOnce } from '../sql/bind-once';

const dyn = (name: string) => ({ name, type: 'dynamic' as const });
// A number (Kusto.Language: KS137 "must be a number"); a string got to DuckDB as a Conversion Error.
const placeholder = { name: 'missing_value_placeholder', type: 'number' as const, optional: true, constant: true };

/** `body` with `value` evaluated once and named `name` (a one-element list mapped by a lambda). */
const bind = (value: string, name: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;
/** The JSON[] of an array value, null for anything else. */
const jsonList = (x: string): string =>
  bindOnce(x, (v) => `CASE WHEN json_type(${v}) = 'ARRAY' THEN CAST(${v} AS JSON[]) END`);
/** A JSON element as DOUBLE: null for null and for anything not a number. */
const num = (e: string): string => `TRY_CAST(CAST(${e} AS VARCHAR) AS DOUBLE)`;

/** A DOUBLE as a JSON element; NaN and infinities as the strings Kusto writes for them. */
const realJson = (v: string): string =>
  `CASE WHEN isnan(${v}) THEN CAST('"NaN"' AS JSON) WHEN isinf(${v}) THEN CAST(CASE WHEN ${v} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END AS JSON) ELSE to_json(${v}) END`;

/** The test for a missing element: null, or equal to a non-null placeholder (argument i). */
function missingTest(c: SqlCall, i: number): (e: string) => string {
  const p = c.args[i];
  if (p === undefined || (p.kind === 'lit' && p.value === null)) return (e) => `(${num(e)} IS NULL)`;
  return (e) => `coalesce(${num(e)} = CAST(${c.a[i]} AS DOUBLE), FALSE)`;
}

/**
 * For each index i (1-based) of l, how many present elements sit at or before i, in one sort:
 * present index p is written 2p and index i 2i + 1, so after sorting, i's entry at position s
 * has i - 1 other indexes and s - i present ones before it. n log n, where looking left and right
 * per element with list scans was quadratic (a 10,000-element fill took 9 s).
 */
const presentCounts = (present: string): string =>
  `list_filter(list_transform(list_sort(list_concat(list_transform(${present}, p -> p * 2), list_transform(range(1, len(l) + 1), i -> i * 2 + 1))), (m, s) -> CASE WHEN m % 2 = 1 THEN s - (m - 1) // 2 END), x -> x IS NOT NULL)`;

/** `body` over l (the JSON[] list), ps (indexes of present elements) and cs (presentCounts). */
function withNeighbours(c: SqlCall, missing: (e: string) => string, body: string): string {
  const ps = `list_filter(range(1, len(l) + 1), i -> NOT ${missing('l[i]')})`;
  return bind(jsonList(c.a[0]!), 'l', bind(ps, 'ps', bind(presentCounts('ps'), 'cs', body)));
}

/** Each missing element replaced by the nearest present one on the left (forward) or right. */
function fillNearest(c: SqlCall, forward: boolean): string {
  const missing = missingTest(c, 1);
  const near = forward ? 'l[ps[cs[i]]]' : 'l[ps[cs[i] + 1]]';
  const element = `CASE WHEN ${missing('l[i]')} THEN coalesce(${near}, l[i]) ELSE l[i] END`;
  return withNeighbours(c, missing, `to_json(list_transform(range(1, len(l) + 1), i -> ${element}))`);
}

/**
 * Linear interpolation between the nearest present neighbours; the edges take the nearest present
 * value unless fill_edges is false; an array with nothing present becomes constant_value (0). Arrays
 * of integers get integers: the docs' printed results truncate (73.5 -> 73, 32.667 -> 32).
 */
function fillLinear(c: SqlCall): string {
  const missing = missingTest(c, 1);
  const edges = c.a[2] ?? 'TRUE';
  const constant = c.args[3] ? `CAST(${c.json(3)} AS JSON)` : `CAST('0.0' AS JSON)`;
  const [p, q] = ['ps[cs[i]]', 'ps[cs[i] + 1]'];
  const value = (k: string): string => num(`l[${k}]`);
  const between = `${value(p)} + (${value(q)} - ${value(p)}) * (i - ${p}) / (${q} - ${p})`;
  const ints = `coalesce(list_bool_and(list_transform(ps, k -> json_type(l[k]) IN ('BIGINT', 'UBIGINT'))), FALSE)`;
  const element =
    `CASE WHEN NOT ${missing('l[i]')} THEN l[i] ` +
    `WHEN cs[i] > 0 AND cs[i] < len(ps) THEN CASE WHEN ints THEN to_json(CAST(trunc(${between}) AS BIGINT)) ELSE to_json(${between}) END ` +
    `WHEN coalesce(${edges}, TRUE) THEN coalesce(l[${p}], l[${q}]) ELSE l[i] END`;
  const body =
    `CASE WHEN len(ps) = 0 THEN to_json(list_transform(l, x -> ${constant})) ` +
    `ELSE ${bind(ints, 'ints', `to_json(list_transform(range(1, len(l) + 1), i -> ${element}))`)} END`;
  return withNeighbours(c, missing, body);
}

/** min, min_idx, max, max_idx, avg, stdev, variance, sum, len as a bag (series_stats_dynamic docs). */
function stats(c: SqlCall): string {
  const ignore = c.a[1] ?? 'FALSE';
  const bad = `(NOT coalesce(${ignore}, FALSE) AND coalesce(list_bool_or(list_transform(v, x -> x IS NULL OR NOT isfinite(x))), FALSE))`;
  const kept = `CASE WHEN coalesce(${ignore}, FALSE) THEN list_filter(v, x -> x IS NOT NULL AND isfinite(x)) ELSE v END`;
  const ok = (sql: string): string => `CASE WHEN bad OR len(f) = 0 THEN NULL ELSE ${sql} END`;
  const bag =
    `json_object('min', ${ok('list_min(f)')}, 'min_idx', ${ok('list_position(v, list_min(f)) - 1')}, ` +
    `'max', ${ok('list_max(f)')}, 'max_idx', ${ok('list_position(v, list_max(f)) - 1')}, 'avg', ${ok('list_avg(f)')}, ` +
    `'stdev', ${ok('coalesce(list_stddev_samp(f), 0E0)')}, 'variance', ${ok('coalesce(list_var_samp(f), 0E0)')}, ` +
    `'sum', ${ok('list_sum(f)')}, 'len', len(f))`;
  const values = `list_transform(${jsonList(c.a[0]!)}, x -> ${num('x')})`;
  return bind(values, 'v', bind(kept, 'f', bind(bad, 'bad', `CASE WHEN v IS NULL THEN NULL ELSE ${bag} END`)));
}

/** An argument as a function of the element index: an array's element (null past its end) or a scalar. */
function operand(c: SqlCall, i: number): { list?: string; at: (index: string) => string } {
  if (c.args[i]!.type !== 'dynamic') return { at: () => `CAST(${c.a[i]} AS DOUBLE)` };
  const list = `list_transform(${jsonList(c.a[i]!)}, x -> ${num('x')})`;
  return { list, at: (index) => `s${i}[${index}]` };
}

/** Element-wise `op` over two arrays (or an array and a scalar); length of the longer array. */
function elementWise(c: SqlCall, op: (a: string, b: string) => string, real: boolean): string {
  const [x, y] = [operand(c, 0), operand(c, 1)];
  const lists = [x, y].map((o, i) => (o.list ? { i, list: o.list } : undefined)).filter((o) => o !== undefined);
  const n = `greatest(${lists.map((o) => `coalesce(len(s${o.i}), 0)`).join(', ')})`;
  const element = op(x.at('k'), y.at('k'));
  let body = `to_json(list_transform(range(1, ${n} + 1), k -> ${real ? realJson(element) : element}))`;
  // Null when no argument is an array (Kusto: a non-array series gives null).
  body = `CASE WHEN ${lists.map((o) => `s${o.i} IS NULL`).join(' AND ')} THEN NULL ELSE ${body} END`;
  for (const o of lists) body = bind(o.list, `s${o.i}`, body);
  return body;
}

const binary = (name: string, summary: string, op: (a: string, b: string) => string, real = false): ScalarFunction => ({
  name,
  family: 'series',
  summary,
  signatures: [
    {
      params: [
        { name: 'series1', type: 'any' },
        { name: 'series2', type: 'any' },
      ],
      result: 'dynamic',
    },
  ],
  check: (args: readonly IrExpr[]) =>
    args.some((a) => a.type === 'dynamic')
      ? args.findIndex((a) => a.type !== 'dynamic' && !['int', 'long', 'real', 'decimal'].includes(a.type)) >= 0
        ? [args.findIndex((a) => a.type !== 'dynamic'), 'expects numeric arrays or numbers']
        : undefined
      : [0, 'expects at least one dynamic array'],
  duckdb: (c) => elementWise(c, op, real),
  timestream: null,
});

export const SERIES_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'series_fill_forward',
    family: 'series',
    summary: 'Missing values (null, or the placeholder) replaced by the nearest present value on the left.',
    signatures: [{ params: [dyn('series'), placeholder], result: 'dynamic' }],
    duckdb: (c) => fillNearest(c, true),
    timestream: null,
  },
  {
    name: 'series_fill_backward',
    family: 'series',
    summary: 'Missing values (null, or the placeholder) replaced by the nearest present value on the right.',
    signatures: [{ params: [dyn('series'), placeholder], result: 'dynamic' }],
    duckdb: (c) => fillNearest(c, false),
    timestream: null,
  },
  {
    name: 'series_fill_const',
    family: 'series',
    summary: 'Missing values (null, or the placeholder) replaced by constant_value.',
    signatures: [
      { params: [dyn('series'), { name: 'constant_value', type: 'scalar' }, placeholder], result: 'dynamic' },
    ],
    duckdb: (c) => {
      const missing = missingTest(c, 2);
      return bind(
        jsonList(c.a[0]!),
        'l',
        `to_json(list_transform(l, x -> CASE WHEN ${missing('x')} THEN CAST(${c.json(1)} AS JSON) ELSE x END))`,
      );
    },
    timestream: null,
  },
  {
    name: 'series_fill_linear',
    family: 'series',
    summary:
      'Missing values linearly interpolated; edges take the nearest value unless fill_edges is false; all missing gives constant_value (0).',
    signatures: [
      {
        params: [
          dyn('series'),
          placeholder,
          { name: 'fill_edges', type: 'bool', optional: true },
          { name: 'constant_value', type: 'scalar', optional: true },
        ],
        result: 'dynamic',
      },
    ],
    duckdb: fillLinear,
    timestream: null,
  },
  {
    name: 'series_stats_dynamic',
    family: 'series',
    summary:
      'A bag of min, min_idx, max, max_idx, avg, stdev, variance (sample), sum and len; null statistics when a value is not finite, unless ignore_nonfinite.',
    signatures: [
      { params: [dyn('series'), { name: 'ignore_nonfinite', type: 'bool', optional: true }], result: 'dynamic' },
    ],
    duckdb: stats,
    timestream: null,
  },
  binary(
    'series_add',
    'Element-wise sum of two numeric arrays (or an array and a number); null where an element is missing.',
    (a, b) => `${a} + ${b}`,
    true,
  ),
  binary('series_subtract', 'Element-wise difference series1 - series2.', (a, b) => `${a} - ${b}`, true),
  binary('series_multiply', 'Element-wise product.', (a, b) => `${a} * ${b}`, true),
  binary('series_divide', 'Element-wise quotient as real (x/0 is Infinity, 0/0 NaN).', (a, b) => `${a} / ${b}`, true),
  binary('series_greater', 'Element-wise series1 > series2 as bools.', (a, b) => `${a} > ${b}`),
  binary('series_greater_equals', 'Element-wise series1 >= series2 as bools.', (a, b) => `${a} >= ${b}`),
  binary('series_less', 'Element-wise series1 < series2 as bools.', (a, b) => `${a} < ${b}`),
  binary('series_less_equals', 'Element-wise series1 <= series2 as bools.', (a, b) => `${a} <= ${b}`),
  binary('series_equals', 'Element-wise series1 == series2 as bools.', (a, b) => `${a} = ${b}`),
  binary('series_not_equals', 'Element-wise series1 != series2 as bools.', (a, b) => `${a} <> ${b}`),
  {
    name: 'series_abs',
    family: 'series',
    summary: 'The absolute value of each element.',
    signatures: [{ params: [dyn('series')], result: 'dynamic' }],
    duckdb: ({ a }) => `to_json(list_transform(${jsonList(a[0]!)}, x -> ${realJson(`abs(${num('x')})`)}))`,
    timestream: null,
  },
];
