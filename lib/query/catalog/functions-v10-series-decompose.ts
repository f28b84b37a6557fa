// series_decompose (series-decompose-function docs) and series_decompose_forecast
// (series-decompose-forecast-function docs) with a given seasonality; the SQL is in
// functions-v10-series-decompose-sql.ts.
// series_decompose gives four columns (baseline, seasonal, trend, residual): alone in extend or
// project it is rewritten before analysis (lib/query/series-stats.ts) into one call per column, its
// omitted arguments filled with their defaults (-1, 'avg', 0), each column reading its component of
// the call with a last constant argument 'all' (the bag of the four, computed once). series_decompose_forecast is the baseline of series_decompose with Points test points:
// its page returns "a dynamic array with the forecasted series".
// Refused with a 400: seasonality -1 (autodetect, the default), since it needs series_periods_detect,
// whose scoring no page defines; Seasonality_threshold, which only autodetect reads.
// DuckDB only: its SQL uses DuckDB list functions (list_median, list_zip); Timestream has list lambdas but no list median.
import type { IrExpr } from '../ir';
import { constantOf, type ArgumentCheck, type ScalarFunction } from './types';
import { decomposeSql, type Component, type Trend } from './functions-v10-series-decompose-sql';

const AUTODETECT =
  'seasonality -1 (autodetect, the default) needs series_periods_detect, which is not supported; give the period in bins (0 for none)';
const TRENDS: readonly string[] = ['avg', 'linefit', 'none'];
const COMPONENTS: readonly string[] = ['baseline', 'seasonal', 'trend', 'residual', 'all'];

/** [index, message] for a wrong seasonality, trend or test points at those indexes, else undefined. */
function checkModel(
  args: readonly IrExpr[],
  period: number,
  trend: number,
  points: number,
): readonly [number, string] | undefined {
  if (args.length <= period) return [-1, AUTODETECT];
  const p = Number(constantOf(args[period]));
  if (p === -1) return [period, AUTODETECT];
  if (!(p >= 0)) return [period, 'seasonality must be 0 (none) or a positive number of bins'];
  const t = args.length > trend ? constantOf(args[trend]) : 'avg';
  if (!TRENDS.includes(String(t))) return [trend, "trend must be 'avg', 'linefit' or 'none'"];
  const n = constantOf(args[points]);
  if (n !== undefined && n !== null && Number(n) < 0) return [points, 'the number of test points must not be negative'];
  return undefined;
}

const decomposeCheck: ArgumentCheck = (args) =>
  checkModel(args, 1, 2, 3) ??
  (COMPONENTS.includes(String(constantOf(args[4])))
    ? undefined
    : [4, 'component must be baseline, seasonal, trend, residual or all']);

const forecastCheck: ArgumentCheck = (args) =>
  args.length > 4
    ? [4, 'Seasonality_threshold applies only to seasonality -1 (autodetect), which is not supported']
    : checkModel(args, 2, 3, 1);

/** The checked seasonality, exact: a long past 2^53 would come back from a number as a HUGEINT literal. */
const periodOf = (arg: IrExpr | undefined): bigint => BigInt(constantOf(arg) as bigint | number);

const dyn = (name: string) => ({ name, type: 'dynamic' as const });

export const SERIES_V10_DECOMPOSE_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'series_decompose',
    family: 'series',
    summary:
      'Seasonal (median of each phase), trend (avg, linefit or none of the deseasonalized points), baseline and residual of a numeric array, ' +
      'the last test_points left out of the learning. Users write series_decompose(x, period [, trend, test_points]) alone in extend or project: ' +
      'columns series_decompose_x_baseline, _seasonal, _trend, _residual, or (b, s, t, r) = series_decompose(...); the compiler fills in the defaults and the component. ' +
      'Seasonality -1 (autodetect, the default) and Seasonality_threshold are refused with a 400. A series holding a non-number gives nulls.',
    signatures: [
      {
        params: [
          dyn('series'),
          { name: 'seasonality', type: 'integer', constant: true },
          { name: 'trend', type: 'string', constant: true },
          { name: 'test_points', type: 'integer' },
          { name: 'component', type: 'string', constant: true },
        ],
        result: 'dynamic',
      },
    ],
    check: decomposeCheck,
    duckdb: (c) =>
      decomposeSql({
        series: c.a[0]!,
        period: periodOf(c.args[1]),
        trend: constantOf(c.args[2]) as Trend,
        testPoints: c.a[3]!,
        component: constantOf(c.args[4]) as Component,
      }),
    timestream: null,
  },
  {
    name: 'series_decompose_forecast',
    family: 'series',
    summary:
      'The baseline (seasonal + trend) of series_decompose over the whole array, learnt without its last Points points: series_decompose_forecast(x, points, period [, trend]). Name its column (f = ...). Seasonality -1 (autodetect, the default) and Seasonality_threshold are refused with a 400.',
    signatures: [
      {
        params: [
          dyn('series'),
          { name: 'points', type: 'integer' },
          { name: 'seasonality', type: 'integer', optional: true, constant: true },
          { name: 'trend', type: 'string', optional: true, constant: true },
          { name: 'seasonality_threshold', type: 'real', optional: true, constant: true },
        ],
        result: 'dynamic',
      },
    ],
    check: forecastCheck,
    duckdb: (c) =>
      decomposeSql({
        series: c.a[0]!,
        period: periodOf(c.args[2]),
        trend: (c.args[3] ? constantOf(c.args[3]) : 'avg') as Trend,
        testPoints: c.a[1]!,
        component: 'baseline',
      }),
    timestream: null,
  },
];
