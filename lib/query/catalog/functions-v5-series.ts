// series_fit_line_dynamic (series-fit-line-dynamic-function docs): least-squares line through the
// points (1, y1) ... (n, yn). The page's printed figures fix what its words leave open: x counts
// from 1 (line_fit starts at interception + slope), variance and rvariance divide by n - 1, and
// rsquare is 1 - residual / total sum of squares. Elements that are not numbers count as 0, as in
// series_fir here. series_fit_line (several columns) reads this bag (lib/query/series-stats.ts).
// DuckDB only: Timestream has no list lambdas here.
import type { ScalarFunction, SqlCall } from './types';

/** `body` with `value` evaluated once and named `name`. */
const bind = (value: string, name: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;

/** The DOUBLE[] of an array value (non-numbers as 0), null for anything else. */
const doubles = (x: string): string =>
  `CASE WHEN json_type(${x}) = 'ARRAY' THEN list_transform(CAST(${x} AS JSON[]), e -> coalesce(TRY_CAST(CAST(e AS VARCHAR) AS DOUBLE), 0E0)) END`;

/** A DOUBLE as a JSON element; NaN and infinities as the strings Kusto writes for them (a constant series' rsquare is 0 / 0). */
const realJson = (v: string): string =>
  `CASE WHEN isnan(${v}) THEN CAST('"NaN"' AS JSON) WHEN isinf(${v}) THEN CAST(CASE WHEN ${v} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END AS JSON) ELSE to_json(${v}) END`;

/** The sums the fit needs over the DOUBLE[] `y` (an expression naming a list), for a binding named s. */
function sumsOf(y: string): string {
  const n = `CAST(len(${y}) AS DOUBLE)`;
  // Sums over i = 1..n: x's mean is (n + 1) / 2 and its spread n (n^2 - 1) / 12.
  return `{'n': ${n}, 'my': list_avg(${y}), 'sxy': list_sum(list_transform(${y}, (v, i) -> (i - (${n} + 1) / 2) * v)), 'sxx': ${n} * (${n} * ${n} - 1) / 12}`;
}
const slope = `s.sxy / s.sxx`;
const intercept = `(s.my - ${slope} * (s.n + 1) / 2)`;

/**
 * The struct {'a': interception, 'b': slope} of the least-squares line through (i, y[i]), i = 1..n,
 * of the DOUBLE[] `y`, as series_fit_line computes them (series_decompose's 'linefit' trend).
 */
export const lineOf = (y: string): string => bind(sumsOf(y), 's', `{'a': ${intercept}, 'b': ${slope}}`);

/** The bag of the fit of y (a DOUBLE[] named y); s holds n, the means and the slope. */
function fitLine(c: SqlCall): string {
  const sums = sumsOf('y');
  const fit = (i: string): string => `(${intercept} + ${slope} * ${i})`;
  const residual = `list_sum(list_transform(y, (v, i) -> (v - ${fit('i')}) ** 2))`;
  const total = `list_sum(list_transform(y, v -> (v - s.my) ** 2))`;
  const bag =
    `json_object('rsquare', ${realJson(`1 - ${residual} / ${total}`)}, 'slope', ${realJson(slope)}, 'variance', ${realJson(`${total} / (s.n - 1)`)}, ` +
    `'rvariance', ${realJson(`${residual} / (s.n - 1)`)}, 'interception', ${realJson(intercept)}, 'line_fit', list_transform(y, (v, i) -> ${realJson(fit('i'))}))`;
  return bind(
    doubles(c.a[0]!),
    'y',
    `CASE WHEN y IS NULL THEN NULL WHEN len(y) = 0 THEN JSON '{}' ELSE ${bind(sums, 's', bag)} END`,
  );
}

export const SERIES_V5_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'series_fit_line_dynamic',
    family: 'series',
    summary:
      'The least-squares line of a numeric array over x = 1..n as a bag: rsquare, slope, variance, rvariance, interception, line_fit (non-numbers count as 0).',
    signatures: [{ params: [{ name: 'series', type: 'dynamic' }], result: 'dynamic' }],
    duckdb: fitLine,
    timestream: null,
  },
];
