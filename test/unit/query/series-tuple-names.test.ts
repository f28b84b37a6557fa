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
