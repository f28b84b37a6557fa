// The DuckDB SQL of a series decomposition with a given period (series-decompose-function docs):
// seasonal = the median of the learning points in the same phase (0 when the period is 0), the
// trend taken from the deseasonalized learning points (average, least-squares line, or none),
// baseline = seasonal + trend, residual = x - baseline. The last test_points points are left out of
// the learning and get the extended components (series-decompose-forecast-function docs: they are
// "excluded from the learning, or regression, process" and forecast from the baseline).
// What the pages leave open gives null, never a guess: a series holding an element that is not a
// number, a negative test_points, or no point to learn from (test_points >= the length); a phase
// with no learning point (period longer than the learning points) gives null at its positions.
// The median of an even count is the mean of the middle two (series_seasonal's printed output).
import { lineOf } from './functions-v5-series';

export type Trend = 'avg' | 'linefit' | 'none';
const COMPONENTS = ['baseline', 'seasonal', 'trend', 'residual'] as const;
/** One component, or 'all': the bag of the four (series_decompose's columns each read it). */
export type Component = 'baseline' | 'seasonal' | 'trend' | 'residual' | 'all';

export interface Decomposition {
  /** SQL of the dynamic series. */
  readonly series: string;
  /** 0 (no seasonality) or a positive number of bins. */
  readonly period: bigint;
  readonly trend: Trend;
  /** SQL of the integer number of trailing points left out of the learning. */
  readonly testPoints: string;
  readonly component: Component;
}

/** `body` with `value` evaluated once and named `name`. */
const bind = (value: string, name: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;

/** A DOUBLE as a JSON element; NaN and infinities as the strings Kusto writes for them. */
const realJson = (v: string): string =>
  `CASE WHEN isnan(${v}) THEN CAST('"NaN"' AS JSON) WHEN isinf(${v}) THEN CAST(CASE WHEN ${v} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END AS JSON) ELSE to_json(${v}) END`;

/** Whether every element of a DOUBLE[] is finite (nulls count as finite: they are written as null). */
const finite = (list: string): string => `list_bool_and(list_transform(${list}, z -> coalesce(isfinite(z), true)))`;

/** A DOUBLE[] as a JSON array: written whole unless it holds a NaN or an infinity (one linefit point: 0 / 0). */
const realsJson = (list: string): string =>
  bind(
    list,
    'zs',
    `CASE WHEN ${finite('zs')} THEN to_json(zs) ELSE to_json(list_transform(zs, z -> ${realJson('z')})) END`,
  );

/**
 * The bag of the four components, written whole when the baseline and the residual are finite: the
 * baseline is seasonal + trend, finite only when both are. Writing one struct instead of four arrays
 * made the bag about 30% faster.
 */
const bagJson = (lists: Readonly<Record<(typeof COMPONENTS)[number], string>>): string =>
  bind(
    `{${COMPONENTS.map((k) => `'${k}': ${lists[k]}`).join(', ')}}`,
    'parts',
    `CASE WHEN ${finite('parts.baseline')} AND ${finite('parts.residual')} THEN to_json(parts) ` +
      `ELSE json_object(${COMPONENTS.map((k) => `'${k}', ${realsJson(`parts.${k}`)}`).join(', ')}) END`,
  );

// Names of the bound values; none is a name the reused line fit (lineOf) binds itself (s, v, i).
const X = 'xs'; // the series as DOUBLE[]
const N = 'nl'; // the number of learning points
const S = 'sea'; // the seasonal component over every point

/** The seasonal component over all points: each point gets its phase's median over the learning points. */
function seasonalList(period: bigint): string {
  if (period === 0n) return `list_transform(${X}, z -> 0E0)`;
  const p = String(period);
  // A phase past the learning points holds nothing: a period of 10^9 must not make 10^9 medians.
  const medians = `list_transform(range(0, least(${p}, ${N})), ph -> list_median(list_transform(range(ph + 1, ${N} + 1, ${p}), k -> ${X}[k])))`;
  return bind(medians, 'med', `list_transform(range(0, len(${X})), k -> med[k % ${p} + 1])`);
}

/** `body(trendAt)` with the trend's parameters bound; trendAt(k) is the trend at 1-based point k. */
function withTrend(d: Decomposition, body: (trendAt: (k: string) => string) => string): string {
  if (d.trend === 'none') return body(() => '0E0');
  // The deseasonalized learning points (the series itself without seasonality).
  const learning = d.period === 0n ? `${X}[1:${N}]` : `list_transform(${X}[1:${N}], (z, k) -> z - ${S}[k])`;
  if (d.trend === 'avg')
    return bind(
      `list_avg(${learning})`,
      'tav',
      body(() => 'tav'),
    );
  // Bound first: the line's sums read the list several times.
  return bind(
    bind(learning, 'dsl', lineOf('dsl')),
    'tln',
    body((k) => `(tln.a + tln.b * ${k})`),
  );
}

/** The component's JSON array (or the bag of all four) over the bound series (X) and learning length (N). */
function component(d: Decomposition): string {
  const lists = (trendAt: (k: string) => string) => ({
    seasonal: S,
    trend: `list_transform(range(1, len(${X}) + 1), k -> ${trendAt('k')})`,
    baseline: `list_transform(${S}, (z, k) -> z + ${trendAt('k')})`,
    // Zipped: a lambda reading another list by index (S[k]) is slower in DuckDB.
    residual: `list_transform(list_zip(${X}, ${S}), (z, k) -> z[1] - (z[2] + ${trendAt('k')}))`,
  });
  if (d.component === 'seasonal') return bind(seasonalList(d.period), S, realsJson(S));
  const out = withTrend(d, (trendAt) => {
    const all = lists(trendAt);
    if (d.component !== 'all') return realsJson(all[d.component]);
    return bagJson(all);
  });
  // The trend alone needs the seasonal component only to deseasonalize the learning points; without
  // seasonality the seasonal list is zeros, bound as S so that one body serves both.
  return d.component === 'trend' && (d.period === 0n || d.trend === 'none')
    ? out
    : bind(seasonalList(d.period), S, out);
}

/** The JSON array of one component of the decomposition, or null (see the header). */
export function decomposeSql(d: Decomposition): string {
  const doubles = `CASE WHEN json_type(${d.series}) = 'ARRAY' THEN list_transform(CAST(${d.series} AS JSON[]), e -> TRY_CAST(CAST(e AS VARCHAR) AS DOUBLE)) END`;
  const empty =
    d.component === 'all' ? `json_object(${COMPONENTS.map((k) => `'${k}', JSON '[]'`).join(', ')})` : `JSON '[]'`;
  const body =
    `CASE WHEN ${X} IS NULL OR tpt IS NULL OR tpt < 0 THEN NULL WHEN len(${X}) = 0 THEN ${empty} ` +
    `WHEN list_count(${X}) < len(${X}) OR tpt >= len(${X}) THEN NULL ELSE ${bind(`len(${X}) - tpt`, N, component(d))} END`;
  return bind(doubles, X, bind(`CAST(${d.testPoints} AS BIGINT)`, 'tpt', body));
}
