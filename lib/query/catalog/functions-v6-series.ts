// series_seasonal (series-seasonal-function docs) and the discrete Fourier transform pair
// series_fft / series_ifft (series-fft-function, series-ifft-function docs).
// series_seasonal: element i is the median of the elements in i's phase (i mod period), as the page
// defines it; automatic period detection (period -1, the default) goes through series_periods_detect,
// whose scoring no page defines, so it is refused with a 400 instead of guessed.
// series_fft / series_ifft give two columns (real, imag): alone in extend or project they are
// rewritten before analysis (lib/query/series-stats.ts) into one call per column, with the part as
// a last constant argument, so that no column reads a bag of both parts. X[k] = sum_t x[t]
// e^(-2 pi i k t / n), the inverse with e^(+...) and divided by n (the DFT the page links to), in
// O(n^2) per array. Elements that are not numbers count as 0, as in series_fit_line.
// DuckDB only: Timestream has no list lambdas here.
import { constantOf, type ScalarFunction, type SqlCall } from './types';

const dyn = (name: string) => ({ name, type: 'dynamic' as const });

/** `body` with `value` evaluated once and named `name`. */
const bind = (value: string, name: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;
/** The DOUBLE[] of an array value (non-numbers as `missing`), null for anything else. */
const doubles = (x: string, missing: string): string =>
  `CASE WHEN json_type(${x}) = 'ARRAY' THEN list_transform(CAST(${x} AS JSON[]), e -> coalesce(TRY_CAST(CAST(e AS VARCHAR) AS DOUBLE), ${missing})) END`;
/** A DOUBLE as a JSON element; NaN and infinities as the strings Kusto writes for them. */
const realJson = (v: string): string =>
  `CASE WHEN isnan(${v}) THEN CAST('"NaN"' AS JSON) WHEN isinf(${v}) THEN CAST(CASE WHEN ${v} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END AS JSON) ELSE to_json(${v}) END`;

/** The period argument as a number, or undefined when absent (its check makes it a literal). */
const periodOf = (c: SqlCall): number | undefined => {
  const p = constantOf(c.args[1]);
  return p === undefined || p === null ? undefined : Number(p);
};

/** Each element replaced by the median of its phase's elements (non-numbers left out). */
function seasonal(c: SqlCall): string {
  const period = periodOf(c)!;
  // Not -1 and not positive: the page's "a different value ... returns a series of zeros".
  if (!(period > 0))
    return bind(
      doubles(c.a[0]!, 'NULL'),
      'v',
      `CASE WHEN v IS NULL THEN NULL ELSE to_json(list_transform(v, e -> 0E0)) END`,
    );
  // Any period at or past the series' length gives each element its own phase: a longer one is cut
  // to 2^32 (a list's most), which stays a BIGINT (9223372036854775807 read as a double was a HUGEINT,
  // a DuckDB Binder Error in range()).
  const p = String(Math.min(Math.trunc(period), 2 ** 32));
  const phase = `list_filter(list_transform(range(ph + 1, len(v) + 1, ${p}), i -> v[i]), e -> e IS NOT NULL)`;
  // Phases past the series' end hold nothing: a period of 10^9 must not make 10^9 medians.
  const medians = `list_transform(range(0, least(${p}, len(v))), ph -> list_median(${phase}))`;
  const body = `to_json(list_transform(range(1, len(v) + 1), i -> ${realJson(`m[(i - 1) % ${p} + 1]`)}))`;
  return bind(doubles(c.a[0]!, 'NULL'), 'v', `CASE WHEN v IS NULL THEN NULL ELSE ${bind(medians, 'm', body)} END`);
}

/**
 * The real or imaginary part of the DFT (sign -1) or its inverse (sign +1, divided by n) of
 * re + i im, im missing or shorter counting as 0. X[k] = sum_t z[t] w^t with w = e^(-+2 pi i k / n)
 * is evaluated by Horner's rule over the points backwards (list_reduce), so each frequency costs
 * one cosine and one sine instead of two per term; a lambda that read another list per term (re[t],
 * a table of cosines) copied that list for every term in DuckDB (1,000 series of 100 points: 10 s).
 */
function dft(c: SqlCall, inverse: boolean, part: 'real' | 'imag'): string {
  const im = c.args[1] ? doubles(c.a[1]!, '0E0') : 'CAST([] AS DOUBLE[])';
  // a w + p with w = cos + i (+-sin): the forward transform turns by -2 pi k / n.
  const s = inverse ? 'w.s' : '-w.s';
  const step = `{'r': a.r * w.c - a.i * ${s} + p.r, 'i': a.r * ${s} + a.i * w.c + p.i}`;
  const horner = `list_reduce(list_reverse(zz), (a, p) -> ${step}, {'r': 0E0, 'i': 0E0}).${part === 'real' ? 'r' : 'i'}`;
  const turn = `{'c': cos(2 * pi() * k / n), 's': sin(2 * pi() * k / n)}`;
  const scale = inverse ? ' / n' : '';
  // The sums are DOUBLEs first; they become JSON in one pass over the whole list.
  const series = `to_json(list_transform(list_transform(range(0, n), k -> ${bind(turn, 'w', horner)}${scale}), z -> ${realJson('z')}))`;
  const points = `list_transform(range(1, n + 1), t -> {'r': re[t], 'i': coalesce(i0[t], 0E0)})`;
  return bind(
    doubles(c.a[0]!, '0E0'),
    're',
    `CASE WHEN re IS NULL THEN NULL ELSE ${bind('len(re)', 'n', bind(im, 'i0', bind(points, 'zz', series)))} END`,
  );
}

const fourier = (name: string, inverse: boolean, what: string): ScalarFunction => ({
  name,
  family: 'series',
  summary:
    `${what}. Users write ${name}(real [, imaginary]) alone in extend or project: two columns ${name}_x_real and ${name}_x_imag, ` +
    `or (re, im) = ${name}(...); the compiler fills in the missing imaginary part (dynamic(null)) and the part ("real" or "imag") of each column.`,
  signatures: [
    {
      params: [dyn('real'), dyn('imaginary'), { name: 'part', type: 'string', constant: true }],
      result: 'dynamic',
    },
  ],
  check: (args) =>
    ['real', 'imag'].includes(String(constantOf(args[2]))) ? undefined : [2, 'part must be "real" or "imag"'],
  duckdb: (c) => dft(c, inverse, constantOf(c.args[2]) as 'real' | 'imag'),
  timestream: null,
});

export const SERIES_V6_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'series_seasonal',
    family: 'series',
    summary:
      'Each element replaced by the median of the elements of its phase (index mod period); period 0 or below gives zeros. ' +
      'Automatic detection (no period, or -1) is refused with a 400: it needs series_periods_detect.',
    signatures: [
      {
        params: [dyn('series'), { name: 'period', type: 'integer', optional: true, constant: true }],
        result: 'dynamic',
      },
    ],
    check: (args) => {
      const p = constantOf(args[1]);
      if (p === undefined || p === null || Number(p) === -1)
        return [
          args.length > 1 ? 1 : 0,
          'detecting the period (no period, or -1) needs series_periods_detect, which is not supported; give the period in bins',
        ];
      return undefined;
    },
    duckdb: seasonal,
    timestream: null,
  },
  fourier(
    'series_fft',
    false,
    'The discrete Fourier transform X[k] = sum x[t] e^(-2 pi i k t / n) of real + i imaginary',
  ),
  fourier('series_ifft', true, 'The inverse discrete Fourier transform, divided by n'),
];
