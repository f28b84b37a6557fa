// series_fit_poly (series-fit-poly-function docs): the least-squares polynomial of a given degree
// (default 1) through (x_i, y_i), x defaulting to 1..n. It gives five columns: alone in extend or
// project it is rewritten before analysis (lib/query/series-stats.ts) into one call per column,
// with the field as a last constant argument, so that each column computes only what it needs:
// rsquare, coefficients (highest power first, as the page says), variance, rvariance, poly_fit. The page states that degree 1 matches series_fit_line, whose page
// fixes the figures its words leave open: variance and rvariance divide by n - 1 and rsquare is
// 1 - residual / total sum of squares. Elements that are not numbers count as 0, as there.
// The normal equations are solved by Gauss-Jordan elimination with partial pivoting (list_reduce
// over the pivot columns) in u = (x - c) / s, x's range mapped onto [-1, 1], since powers of raw
// x (x^10 for x = 200 is 1e23) lose every digit; the coefficients are then expanded back to powers
// of x. DuckDB only: Timestream has no list lambdas here.
import { constantOf, type ScalarFunction, type SqlCall } from './types';

/** Degrees above this are refused: the expansion back to x uses factorials, exact in DOUBLE up to 18!. */
export const MAX_POLY_DEGREE = 16;

/** `body` with `value` evaluated once and named `name`. */
const bind = (value: string, name: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;
/** The DOUBLE[] of an array value (non-numbers as 0), null for anything else. */
const doubles = (x: string): string =>
  `CASE WHEN json_type(${x}) = 'ARRAY' THEN list_transform(CAST(${x} AS JSON[]), e -> coalesce(TRY_CAST(CAST(e AS VARCHAR) AS DOUBLE), 0E0)) END`;
/** A DOUBLE as a JSON element; NaN and infinities as the strings Kusto writes for them. */
const realJson = (v: string): string =>
  `CASE WHEN isnan(${v}) THEN CAST('"NaN"' AS JSON) WHEN isinf(${v}) THEN CAST(CASE WHEN ${v} > 0 THEN '"Infinity"' ELSE '"-Infinity"' END AS JSON) ELSE to_json(${v}) END`;

/**
 * One Gauss-Jordan step on the augmented matrix M (m rows of m + 1) for pivot column k (0-based):
 * the row p with the largest |M[p][k]|, p >= k, swapped into row k and scaled to 1 at k, column k
 * cleared from every other row. The swapped and scaled rows are read in place rather than bound:
 * DuckDB's binding time grows steeply with the nesting of lambdas (a bound value is one level).
 */
function eliminate(m: string, k: string): string {
  const pivot = `CAST(list_sort(list_transform(range(${k}, ${m}), w -> [abs(M[w + 1][${k} + 1]), w]), 'DESC')[1][2] AS BIGINT)`;
  const source = `M[CASE WHEN r = ${k} THEN p WHEN r = p THEN ${k} ELSE r END + 1]`;
  const scaled = (j: string): string => `M[p + 1][${j}] / M[p + 1][${k} + 1]`;
  const row =
    `CASE WHEN r = ${k} THEN list_transform(range(1, ${m} + 2), j -> ${scaled('j')}) ` +
    `ELSE list_transform(range(1, ${m} + 2), j -> ${source}[j] - ${source}[${k} + 1] * ${scaled('j')}) END`;
  return bind(pivot, 'p', `list_transform(range(0, ${m}), r -> ${row})`);
}

/** The fields of the fit, in the page's order; the first and the two variances are real. */
export const POLY_FIELDS = ['rsquare', 'coefficients', 'variance', 'rvariance', 'poly_fit'] as const;
type PolyField = (typeof POLY_FIELDS)[number];

/**
 * One field of the fit of y (DOUBLE[]) over x (DOUBLE[], null for 1..n) at degree d (a constant):
 * a DOUBLE for rsquare and the variances, JSON otherwise; computes only what that field needs.
 */
function fitPoly(c: SqlCall, field: PolyField): string {
  const degree = Number(constantOf(c.args[2]) ?? 1);
  const d = String(degree);
  const m = String(degree + 1);
  const ones = `list_transform(range(1, len(y) + 1), i -> CAST(i AS DOUBLE))`;
  const xs = `coalesce(${doubles(c.a[1]!)}, ${ones})`;
  // u = (x - c) / s: the range's centre and half-width (1 when every x is the same); my: y's mean.
  const centre =
    `{'c': (list_min(x) + list_max(x)) / 2, 's': CASE WHEN list_max(x) > list_min(x) THEN (list_max(x) - list_min(x)) / 2 ELSE 1E0 END, ` +
    `'my': list_avg(y)}`;
  const us = `list_transform(x, v -> (v - g.c) / g.s)`;
  // The normal equations in u: A[r][j] = sum u^(r + j), the last column sum y u^r.
  const matrix =
    `list_transform(range(0, ${m}), r -> list_concat(list_transform(range(0, ${m}), j -> list_sum(list_transform(u, v -> v ** (r + j)))), ` +
    `[list_sum(list_transform(u, (v, i) -> y[i] * v ** r))]))`;
  // list_reduce needs its accumulator of the elements' type: each pivot index rides in a DOUBLE[][].
  const solved = `list_reduce(list_transform(range(0, ${m}), k -> [[CAST(k AS DOUBLE)]]), (M, e) -> ${eliminate(m, 'CAST(e[1][1] AS BIGINT)')}, ${matrix})`;
  /** b_j, the coefficient of u^j (0-based j). */
  const b = (j: string): string => `sol[${j} + 1][${m} + 1]`;
  // a_k = sum_{j >= k} b_j s^-j C(j, k) (-c)^(j - k): the polynomial in u expanded in powers of x.
  const choose = `CAST(factorial(CAST(j AS INTEGER)) AS DOUBLE) / CAST(factorial(CAST(k AS INTEGER)) * factorial(CAST(j - k AS INTEGER)) AS DOUBLE)`;
  const coefficient = `list_sum(list_transform(range(k, ${m}), j -> ${b('j')} * g.s ** (-j) * ${choose} * (-g.c) ** (j - k)))`;
  const fitAt = (v: string): string => `list_sum(list_transform(range(0, ${m}), j -> ${b('j')} * ${v} ** j))`;
  const residual = `list_sum(list_transform(u, (v, i) -> (y[i] - ${fitAt('v')}) ** 2))`;
  const total = `list_sum(list_transform(y, v -> (v - g.my) ** 2))`;
  const n = `CAST(len(y) AS DOUBLE)`;
  const values: Record<PolyField, string> = {
    rsquare: `1 - ${residual} / ${total}`,
    coefficients: `to_json(list_transform(range(${d}, -1, -1), k -> ${realJson(coefficient)}))`,
    variance: `${total} / (${n} - 1)`,
    rvariance: `${residual} / (${n} - 1)`,
    poly_fit: `to_json(list_transform(u, v -> ${realJson(fitAt('v'))}))`,
  };
  // Only the variance does without the solution.
  const fitted = field === 'variance' ? values[field] : bind(solved, 'sol', values[field]);
  return bind(
    doubles(c.a[0]!),
    'y',
    `CASE WHEN y IS NULL OR len(y) = 0 THEN NULL ELSE ${bind(
      xs,
      'x',
      `CASE WHEN len(x) <> len(y) THEN NULL ELSE ${bind(centre, 'g', bind(us, 'u', fitted))} END`,
    )} END`,
  );
}

export const SERIES_V6_POLY_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'series_fit_poly',
    family: 'series',
    summary:
      'The least-squares polynomial (degree 1 to 16, default 1; x defaults to 1..n). Users write series_fit_poly(y [, x, degree]) alone in extend or project: ' +
      'five columns series_fit_poly_y_rsquare, _coefficients (highest power first), _variance, _rvariance (both over n - 1), _poly_fit, or (a, b, ...) = series_fit_poly(...); ' +
      'the compiler fills in the defaults and the field of each column. Null when x and y differ in length.',
    signatures: [
      {
        params: [
          { name: 'y_series', type: 'dynamic' },
          { name: 'x_series', type: 'dynamic' },
          { name: 'degree', type: 'integer', constant: true },
          { name: 'field', type: 'string', constant: true },
        ],
        result: (args) =>
          ['rsquare', 'variance', 'rvariance'].includes(String(constantOf(args[3]))) ? 'real' : 'dynamic',
      },
    ],
    check: (args) => {
      if (!(POLY_FIELDS as readonly unknown[]).includes(constantOf(args[3])))
        return [3, `field must be one of ${POLY_FIELDS.join(', ')}`];
      const degree = Number(constantOf(args[2]));
      return Number.isInteger(degree) && degree >= 1 && degree <= MAX_POLY_DEGREE
        ? undefined
        : [2, `degree must be a whole number from 1 to ${MAX_POLY_DEGREE}`];
    },
    duckdb: (c) => fitPoly(c, constantOf(c.args[3]) as PolyField),
    timestream: null,
  },
];
