// More series functions of the scalar-functions page: the element-wise math ones (series_acos ...
// series_tan, series_pow), the reductions series_sum, series_magnitude, series_dot_product,
// series_cosine_similarity, series_pearson_correlation, and array_iff. DuckDB works on the arrays as
// DOUBLE lists (elements that are not numbers become null); Timestream: refused with a 400.
// Where DuckDB raises an error and Kusto answers NaN or infinity (log(0), acos(2)), the argument is
// tested first, as lib/query/catalog/math.ts does.
import { isNumeric } from '../types';
import type { ArgumentCheck, ScalarFunction, SqlCall } from './types';

const dyn = (name: string) => ({ name, type: 'dynamic' as const });

/** The DOUBLE[] of an array value (non-numbers as null), null for anything else. */
export const doubles = (x: string): string =>
  `CASE WHEN json_type(${x}) = 'ARRAY' THEN list_transform(CAST(${x} AS JSON[]), e -> TRY_CAST(CAST(e AS VARCHAR) AS DOUBLE)) END`;
/** A DOUBLE as a JSON element; NaN and infinities as the strings Kusto writes for them. */
const realJson = (v: string): string =>
  `CASE WHEN isnan(${v}) THEN CAST('"NaN"' AS JSON) WHEN isinf(${v}) THEN CAST(CASE WHEN ${v} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END AS JSON) ELSE to_json(${v}) END`;
/** `body` with `value` evaluated once and named `name`. */
export const bind = (value: string, name: string, body: string): string =>
  `list_transform([${value}], ${name} -> ${body})[1]`;

const NAN = `CAST('NaN' AS DOUBLE)`;
const INF = `CAST('Infinity' AS DOUBLE)`;

const unary = (name: string, summary: string, f: (x: string) => string): ScalarFunction => ({
  name,
  family: 'series',
  summary,
  signatures: [{ params: [dyn('series')], result: 'dynamic' }],
  duckdb: ({ a }) => `to_json(list_transform(${doubles(a[0]!)}, x -> ${realJson(f('x'))}))`,
  timestream: null,
});

/** An argument as a function of the (1-based) index: an array's element, or a number broadcast. */
const operand = (c: SqlCall, i: number, list: string): ((k: string) => string) =>
  c.args[i]!.type === 'dynamic' ? (k) => `${list}[${k}]` : () => `CAST(${c.a[i]} AS DOUBLE)`;

/** `body` over s0 and s1 (the arguments' DOUBLE lists, null for a number argument) and their common length n. */
function pairwise(c: SqlCall, shorter: boolean, body: string): string {
  const lens = [0, 1].filter((i) => c.args[i]!.type === 'dynamic').map((i) => `len(s${i})`);
  const n =
    lens.length === 0 ? 'NULL' : lens.length === 1 ? lens[0]! : `${shorter ? 'least' : 'greatest'}(${lens.join(', ')})`;
  const list = (i: number): string => (c.args[i]!.type === 'dynamic' ? doubles(c.a[i]!) : 'CAST(NULL AS DOUBLE[])');
  return bind(list(0), 's0', bind(list(1), 's1', bind(n, 'n', body)));
}

const numberOrArray = { name: 'series', type: 'any' as const };
/**
 * At least one array, and the others arrays or numbers: Kusto.Language refuses a string, bool or
 * datetime here (KS127), which got to DuckDB as a Conversion Error ('' to DOUBLE) or a Binder Error.
 */
const numbersOrArrays: ArgumentCheck = (args) => {
  if (!args.some((a) => a.type === 'dynamic')) return [0, 'expects at least one dynamic array'];
  const i = args.findIndex((a) => a.type !== 'dynamic' && !isNumeric(a.type));
  return i < 0 ? undefined : [i, 'expects numeric arrays or numbers'];
};

/** sum over k of f(x_k, y_k), pairs with a non-number skipped; null for an empty or missing series. */
const sumOf = (c: SqlCall, f: (x: string, y: string) => string): string => {
  const [x, y] = [operand(c, 0, 's0'), operand(c, 1, 's1')];
  const terms = `list_filter(list_transform(range(1, n + 1), k -> ${f(x('k'), y('k'))}), v -> v IS NOT NULL)`;
  return `CASE WHEN n IS NULL OR n = 0 THEN NULL ELSE list_sum(${terms}) END`;
};

/** Pearson's r over s0, s1 (same length n, no nulls) with their means mx, my. */
const pearson =
  `list_sum(list_transform(range(1, n + 1), k -> (s0[k] - mx) * (s1[k] - my))) / ` +
  `sqrt(list_sum(list_transform(s0, v -> (v - mx) * (v - mx))) * list_sum(list_transform(s1, v -> (v - my) * (v - my))))`;

export const SERIES_MORE_FUNCTIONS: readonly ScalarFunction[] = [
  unary(
    'series_acos',
    'The arccosine of each element (NaN outside [-1, 1]).',
    (x) => `CASE WHEN abs(${x}) > 1 THEN ${NAN} ELSE acos(${x}) END`,
  ),
  unary(
    'series_asin',
    'The arcsine of each element (NaN outside [-1, 1]).',
    (x) => `CASE WHEN abs(${x}) > 1 THEN ${NAN} ELSE asin(${x}) END`,
  ),
  unary('series_atan', 'The arctangent of each element.', (x) => `atan(${x})`),
  unary('series_ceiling', 'The smallest integer at or above each element.', (x) => `ceil(${x})`),
  unary('series_floor', 'The largest integer at or below each element.', (x) => `floor(${x})`),
  unary('series_cos', 'The cosine of each element.', (x) => `cos(${x})`),
  unary('series_sin', 'The sine of each element.', (x) => `sin(${x})`),
  unary('series_tan', 'The tangent of each element.', (x) => `tan(${x})`),
  unary(
    'series_exp',
    'e raised to each element (infinity past the largest real).',
    (x) => `CASE WHEN ${x} > 709 THEN ${INF} ELSE exp(${x}) END`,
  ),
  unary(
    'series_log',
    'The natural logarithm of each element (NaN below zero, -infinity at zero).',
    (x) => `CASE WHEN ${x} < 0 THEN ${NAN} WHEN ${x} = 0 THEN -${INF} ELSE ln(${x}) END`,
  ),
  unary('series_sign', 'The sign of each element: -1, 0 or 1.', (x) => `CAST(sign(${x}) AS DOUBLE)`),
  {
    name: 'series_pow',
    family: 'series',
    summary: 'Element-wise series1 raised to series2 (either may be a number); null where an element is missing.',
    signatures: [{ params: [numberOrArray, { name: 'exponent', type: 'any' }], result: 'dynamic' }],
    check: numbersOrArrays,
    duckdb: (c) => {
      const [x, y] = [operand(c, 0, 's0'), operand(c, 1, 's1')];
      return pairwise(
        c,
        false,
        `to_json(list_transform(range(1, n + 1), k -> ${realJson(`pow(${x('k')}, ${y('k')})`)}))`,
      );
    },
    timestream: null,
  },
  {
    name: 'series_sum',
    family: 'series',
    summary: 'The sum of the numeric elements.',
    signatures: [{ params: [dyn('series')], result: 'real' }],
    duckdb: ({ a }) => bind(doubles(a[0]!), 's', `CASE WHEN s IS NULL THEN NULL ELSE coalesce(list_sum(s), 0E0) END`),
    timestream: null,
  },
  {
    name: 'series_magnitude',
    family: 'series',
    summary: 'The square root of the sum of the squared numeric elements.',
    signatures: [{ params: [dyn('series')], result: 'real' }],
    duckdb: ({ a }) =>
      bind(
        doubles(a[0]!),
        's',
        `CASE WHEN s IS NULL THEN NULL ELSE sqrt(coalesce(list_sum(list_transform(s, v -> v * v)), 0E0)) END`,
      ),
    timestream: null,
  },
  {
    name: 'series_dot_product',
    family: 'series',
    summary: 'The sum of the element-wise products (a number is broadcast; the longer series is cut; null when empty).',
    signatures: [{ params: [numberOrArray, { name: 'series2', type: 'any' }], result: 'real' }],
    check: numbersOrArrays,
    duckdb: (c) =>
      pairwise(
        c,
        true,
        sumOf(c, (x, y) => `${x} * ${y}`),
      ),
    timestream: null,
  },
  {
    name: 'series_cosine_similarity',
    family: 'series',
    summary: 'The cosine similarity of two numeric series (the longer is cut; null when one is empty).',
    signatures: [{ params: [dyn('series1'), dyn('series2')], result: 'real' }],
    duckdb: (c) => {
      const dot = sumOf(c, (x, y) => `${x} * ${y}`);
      const norm = (s: string): string =>
        `sqrt(list_sum(list_transform(list_filter(range(1, n + 1), k -> s0[k] IS NOT NULL AND s1[k] IS NOT NULL), k -> ${s}[k] * ${s}[k])))`;
      return pairwise(c, true, `(${dot}) / (${norm('s0')} * ${norm('s1')})`);
    },
    timestream: null,
  },
  {
    name: 'series_pearson_correlation',
    family: 'series',
    summary:
      'The Pearson correlation coefficient of two numeric series; null for a non-number or series of different lengths.',
    signatures: [{ params: [dyn('series1'), dyn('series2')], result: 'real' }],
    duckdb: (c) =>
      pairwise(
        c,
        true,
        `CASE WHEN len(s0) <> len(s1) OR n = 0 OR list_bool_or(list_transform(s0, v -> v IS NULL)) OR list_bool_or(list_transform(s1, v -> v IS NULL)) THEN NULL ` +
          `ELSE ${bind('list_avg(s0)', 'mx', bind('list_avg(s1)', 'my', pearson))} END`,
      ),
    timestream: null,
  },
  {
    name: 'array_iff',
    aliases: ['array_iif'],
    family: 'array',
    summary:
      'Element-wise iff over a condition array (numbers: true unless 0; other elements give null) choosing from two arrays or values.',
    signatures: [
      {
        params: [dyn('condition_array'), { name: 'when_true', type: 'any' }, { name: 'when_false', type: 'any' }],
        result: 'dynamic',
      },
    ],
    duckdb: (c) => {
      const pick = (i: number): string =>
        c.args[i]!.type === 'dynamic'
          ? `coalesce(CAST(CASE WHEN json_type(${c.a[i]}) = 'ARRAY' THEN CAST(${c.a[i]} AS JSON[])[k] ELSE ${c.a[i]} END AS VARCHAR), 'null')`
          : c.json(i);
      const cond =
        `CASE json_type(e) WHEN 'BOOLEAN' THEN CAST(e AS VARCHAR) = 'true' ` +
        `WHEN 'BIGINT' THEN CAST(CAST(e AS VARCHAR) AS DOUBLE) <> 0 WHEN 'UBIGINT' THEN CAST(CAST(e AS VARCHAR) AS DOUBLE) <> 0 ` +
        `WHEN 'DOUBLE' THEN CAST(CAST(e AS VARCHAR) AS DOUBLE) <> 0 END`;
      const element = `CASE ${cond} WHEN TRUE THEN ${pick(1)} WHEN FALSE THEN ${pick(2)} ELSE 'null' END`;
      return `CASE WHEN json_type(${c.a[0]}) = 'ARRAY' THEN CAST('[' || array_to_string(list_transform(CAST(${c.a[0]} AS JSON[]), (e, k) -> ${element}), ',') || ']' AS JSON) END`;
    },
    timestream: null,
  },
];
