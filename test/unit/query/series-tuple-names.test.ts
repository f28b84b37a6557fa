// `(a, b, ...) = f(...)` with fewer names than the function's columns (lib/query/series-stats.ts):
// series_fit_line and series_fit_poly (as series_decompose) keep every column, the unnamed ones
// under their default names, in the order Kusto.Language gives (`print x=dynamic([1,2,3]) | extend
// (rsquare, slope) = series_fit_line(x)` has six columns there); series_stats keeps only the named
// ones, as its page says. Values follow the series_fit_line page's example.
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { duck, queryRunner } from './geocell-queries';

const schema = (query: string): string[] => compile(query, duck).columns.map((c) => `${c.name}:${c.type}`);

describe('(a, b, ...) = with fewer names than columns', () => {
  let run: (query: string) => Promise<unknown[][]>;
  beforeAll(async () => {
    run = await queryRunner();
  });

  it('keeps the four unnamed columns of series_fit_line under their default names, as Kusto.Language does', () => {
    // Act, Assess: Kusto.Language's schema of the brief's query.
    expect(schema('print x=dynamic([1,2,3]) | extend (rsquare, slope) = series_fit_line(x)')).toEqual([
      'x:dynamic',
      'rsquare:real',
      'slope:real',
      'series_fit_line_x_variance:real',
      'series_fit_line_x_rvariance:real',
      'series_fit_line_x_interception:real',
      'series_fit_line_x_line_fit:dynamic',
    ]);
  });

  it("gives the unnamed columns of series_fit_line the page's values", async () => {
    // Act: the page's example, two names given.
    const [row] = await run(
      'print y=dynamic([2, 5, 6, 8, 11, 15, 17, 18, 25, 26, 30, 30])\n' +
        '| extend (RSquare, Slope) = series_fit_line(y) | project-away y',
    );
    // Assess: the page prints 0.982, 2.730, 98.628, 1.686, -1.666 and the fitted line from 1.064.
    const printed = [0.982, 2.73, 98.628, 1.686, -1.666, 1.064, 3.7945];
    const got = [...row!.slice(0, 5), ...(row![5] as number[]).slice(0, 2)] as number[];
    got.forEach((x, i) => expect(x).toBeCloseTo(printed[i]!, 2));
  });

  it('keeps the unnamed columns of series_fit_poly, in Kusto.Language order', () => {
    // Act, Assess
    expect(schema('print x=dynamic([1,2,3]) | project (a, b) = series_fit_poly(x)')).toEqual([
      'a:real',
      'b:dynamic',
      'series_fit_poly_x_variance:real',
      'series_fit_poly_x_rvariance:real',
      'series_fit_poly_x_poly_fit:dynamic',
    ]);
  });

  it('keeps only the named columns of series_stats, as its page says of a limited number of names', () => {
    // Act, Assess
    expect(schema('print x=dynamic([1,2,3]) | project (mn, mn_idx) = series_stats(x)')).toEqual([
      'mn:real',
      'mn_idx:long',
    ]);
  });
});

describe('(a, b, ...) = naming a column the call reads', () => {
  let run: (query: string) => Promise<unknown[][]>;
  beforeAll(async () => {
    run = await queryRunner();
  });
  // x = [1, 2, 4, 8, 16]: the line through it is -4.6 + 3.6 t (t = 1..5), its variance 37.2 and the
  // residuals' variance 4.8 (sample variances, as the series_fit_line page's figures are).
  const x = 'print x=dynamic([1,2,4,8,16])';

  it.each(['extend', 'project'])('computes every column of series_fit_poly from the input in %s', async (op) => {
    // Act: the second name replaces x, which the other columns read.
    const [row] = await run(
      `${x} | ${op} (rsquare, x) = series_fit_poly(x) | project variance=series_fit_poly_x_variance, rvariance=series_fit_poly_x_rvariance, fit=series_fit_poly_x_poly_fit, x`,
    );
    // Assess
    expect(row![0]).toBeCloseTo(37.2, 6);
    expect(row![1]).toBeCloseTo(4.8, 6);
    (row![2] as number[]).forEach((v, i) => expect(v).toBeCloseTo([-1, 2.6, 6.2, 9.8, 13.4][i]!, 6));
    // The coefficients highest power first (the line is -4.6 + 3.6 t, t = 1..5).
    (row![3] as number[]).forEach((v, i) => expect(v).toBeCloseTo([3.6, -4.6][i]!, 6));
  });

  it('computes every column of series_fit_line from the input when a name replaces it', async () => {
    // Act
    const [row] = await run(
      `${x} | extend (rsquare, x) = series_fit_line(x) | project series_fit_line_x_variance, x, series_fit_line_x_interception`,
    );
    // Assess: x is now the slope.
    expect(row![0]).toBeCloseTo(37.2, 6);
    expect(row![1]).toBeCloseTo(3.6, 6);
    expect(row![2]).toBeCloseTo(-4.6, 6);
  });

  it('computes every statistic of series_stats and series_decompose from the input', async () => {
    // Act
    const [stats] = await run(`${x} | extend (x, i, mx) = series_stats(x) | project x, mx`);
    const [parts] = await run(`${x} | extend (x, s) = series_decompose(x, 0) | project x, s, series_decompose_x_trend`);
    // Assess: the minimum and maximum of the input; baseline = trend for a series too short for seasons.
    expect(stats).toEqual([1, 16]);
    expect(parts![0]).toEqual(parts![2]);
  });
});

describe('default names of several (a, b, ...) = in one operator', () => {
  it.each(['extend', 'project'])('numbers the repeated default names in %s, as Kusto.Language does', (op) => {
    // Act, Assess: Kusto.Language's schema.
    expect(
      schema(`print x=dynamic([1,2]) | ${op} (r, s) = series_fit_line(x), (a, b) = series_fit_line(x)`).slice(-6),
    ).toEqual([
      'a:real',
      'b:real',
      'series_fit_line_x_variance1:real',
      'series_fit_line_x_rvariance1:real',
      'series_fit_line_x_interception1:real',
      'series_fit_line_x_line_fit1:dynamic',
    ]);
  });

  it('numbers a default name that the same (a, b) = writes', () => {
    // Act, Assess: Kusto.Language's schema.
    expect(
      schema('print x=dynamic([1,2]) | extend (rsquare, series_fit_line_x_variance) = series_fit_line(x)'),
    ).toEqual([
      'x:dynamic',
      'rsquare:real',
      'series_fit_line_x_variance:real',
      'series_fit_line_x_variance1:real',
      'series_fit_line_x_rvariance:real',
      'series_fit_line_x_interception:real',
      'series_fit_line_x_line_fit:dynamic',
    ]);
  });
});
