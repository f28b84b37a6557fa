// Series filters users pair with make-series: series_fir (finite impulse response) and series_iir
// (infinite impulse response), per the series-fir-function and series-iir-function docs. A sample
// before the start of the series counts as 0 (the filters start at rest); elements that are not
// numbers count as 0 too. DuckDB works on the arrays as DOUBLE lists in lambdas; Timestream has no
// list lambdas here: refused there with a 400.
import type { ScalarFunction, SqlCall } from './types';

/** series_iir's longest series (its cost per value is quadratic in the length). */
export const IIR_MAX_ELEMENTS = 10_000;

const dyn = (name: string) => ({ name, type: 'dynamic' as const });
const flag = (name: string) => ({ name, type: 'bool' as const, optional: true });

/** `body` with `value` evaluated once and named `name`. */
const bind = (value: string, name: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;
/** The DOUBLE[] of an array value (non-numbers as null), null for anything else. */
const doubles = (x: string): string =>
  `CASE WHEN json_type(${x}) = 'ARRAY' THEN list_transform(CAST(${x} AS JSON[]), e -> TRY_CAST(CAST(e AS VARCHAR) AS DOUBLE)) END`;
/** A DOUBLE as a JSON element; NaN and infinities as the strings Kusto writes for them. */
const realJson = (v: string): string =>
  `CASE WHEN isnan(${v}) THEN CAST('"NaN"' AS JSON) WHEN isinf(${v}) THEN CAST(CASE WHEN ${v} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END AS JSON) ELSE to_json(${v}) END`;
const sample = (list: string, index: string): string =>
  `CASE WHEN ${index} >= 1 AND ${index} <= len(${list}) THEN coalesce(${list}[${index}], 0) ELSE 0 END`;

/**
 * series_fir: y[i] = sum_j f[j] * x[i - j (+ shift)], f divided by its sum when normalize holds.
 * normalize defaults to true unless the filter has a negative coefficient; normalize = true with a
 * negative coefficient gives null (docs). center shifts the window by (len(f) - 1) / 2, rounded down.
 */
function fir(c: SqlCall): string {
  const negative = `coalesce(list_bool_or(list_transform(f, v -> v < 0)), FALSE)`;
  const normalize = c.a[2] ? `coalesce(${c.a[2]}, NOT ${negative})` : `NOT ${negative}`;
  const shift = c.a[3] ? `CASE WHEN coalesce(${c.a[3]}, FALSE) THEN (len(f) - 1) // 2 ELSE 0 END` : '0';
  const y = `list_sum(list_transform(range(1, len(f) + 1), j -> coalesce(f[j], 0) * ${sample('x', `i - j + 1 + ${shift}`)})) / scale`;
  const body = `CASE WHEN x IS NULL OR f IS NULL OR len(f) = 0 OR (${normalize} AND ${negative}) THEN NULL ELSE ${bind(
    `CASE WHEN ${normalize} THEN list_sum(list_transform(f, v -> coalesce(v, 0))) ELSE 1E0 END`,
    'scale',
    `to_json(list_transform(range(1, len(x) + 1), i -> ${realJson(y)}))`,
  )} END`;
  return bind(doubles(c.a[0]!), 'x', bind(doubles(c.a[1]!), 'f', body));
}

/**
 * series_iir: a[0] y[i] = sum_k b[k] x[i - k] - sum_{k >= 1} a[k] y[i - k] (series-iir-function docs).
 * The feed-forward sums of every i come first, in one pass; list_reduce then carries the outputs so
 * far and reads only them and a. (A reduce step that read x too cost a copy of x per element:
 * 2.6 s for 1,000 elements, minutes for 100,000, and DuckDB cannot interrupt a list_reduce.) Each
 * step still copies the outputs so far (quadratic: 0.9 s for 1,000 elements, 7 s for 8,000 on a busy
 * machine), so a longer series fails the query at once instead of holding a thread for minutes.
 */
function iir(c: SqlCall): string {
  const feedForward = `list_transform(range(1, len(x) + 1), i -> [list_sum(list_transform(range(1, len(b) + 1), k -> coalesce(b[k], 0) * ${sample('x', 'i - k + 1')}))])`;
  // y holds the outputs before this one: its i is len(y) + 1, so y[i - k + 1] is y[len(y) + 2 - k].
  const feedBack = `coalesce(list_sum(list_transform(range(2, len(a) + 1), k -> coalesce(a[k], 0) * ${sample('y', 'len(y) + 2 - k')})), 0)`;
  // list_reduce wants its accumulator of the elements' type: each sum rides in a one-element DOUBLE[].
  const outputs = `list_reduce(${feedForward}, (y, e) -> list_append(y, (e[1] - ${feedBack}) / a[1]), CAST([] AS DOUBLE[]))`;
  const body = `CASE WHEN x IS NULL OR b IS NULL OR a IS NULL OR len(a) = 0 OR coalesce(a[1], 0) = 0 THEN NULL WHEN len(x) = 0 THEN JSON '[]' WHEN len(x) > ${IIR_MAX_ELEMENTS} THEN error('series_iir(): the series has more than ${IIR_MAX_ELEMENTS} elements, the most filtered here (the cost grows with the square of the length and one value cannot be interrupted)') ELSE ${bind(
    outputs,
    'ys',
    `to_json(list_transform(ys, v -> ${realJson('v')}))`,
  )} END`;
  return bind(doubles(c.a[0]!), 'x', bind(doubles(c.a[1]!), 'b', bind(doubles(c.a[2]!), 'a', body)));
}

export const SERIES_V4_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'series_fir',
    family: 'series',
    summary: 'The series through a finite impulse response filter (normalized by default, optionally centered).',
    signatures: [{ params: [dyn('series'), dyn('filter'), flag('normalize'), flag('center')], result: 'dynamic' }],
    duckdb: fir,
    timestream: null,
  },
  {
    name: 'series_iir',
    family: 'series',
    summary: `The series through an infinite impulse response filter of numerators and denominators (at most ${IIR_MAX_ELEMENTS} elements).`,
    signatures: [{ params: [dyn('series'), dyn('numerators'), dyn('denominators')], result: 'dynamic' }],
    duckdb: iir,
    timestream: null,
  },
];
