// The v11 functions (lib/query/catalog/functions-v11-*.ts, variancepif in aggregations.ts) and the
// v11 refusals (functions-v11-refused.ts, the plugins' in refusal-reasons.ts): argument errors, names, what the pages leave to the rules
// (nulls, one row, NaN, empty series, WKT forms the page prints no example of), and Timestream.
// Their page examples are in the conformance corpus (test/conformance/cases/fn-fns11-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import {
  baseOptions,
  compileFailure,
  expectRefusedAt,
  expectRefusedWithReason,
  expectFunctionRefused,
} from './compile-failure';
import { rowsOf } from './duckdb-rows';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

/** Five pairs of the covariance page: covariance 20.5, covariancep 16.4. */
const PAIRS = 'datatable(x:real, y:real) [1.0, 14.0, 2.0, 10.0, 3.0, 17.0, 4.0, 20.0, 5.0, 50.0]';

describe('v11 functions: argument errors and names', () => {
  it.each([
    [`${PAIRS} | summarize covariance(x)`, 'covariance() takes (expr1: number, expr2: number); got (real)', '1:95'],
    [
      `${PAIRS} | summarize covarianceif(x, y)`,
      'covarianceif() takes (expr1: number, expr2: number, predicate: bool)',
      '1:95',
    ],
    [`${PAIRS} | summarize covariance(x, "a")`, "argument 'expr2' must be", '1:109'],
    [`${PAIRS} | summarize covariancep(x, dynamic(1))`, "argument 'expr2' must be", '1:110'],
    [`${PAIRS} | summarize covariancepif(x, y, 1)`, "argument 'predicate' must be", '1:115'],
    [`${PAIRS} | summarize variancepif(x)`, 'variancepif() takes (expr: number, predicate: bool)', '1:95'],
    ['print r = series_product(1)', "argument 'series' must be", '1:26'],
    ['print r = geo_from_wkt()', 'geo_from_wkt() takes (wkt: string); got ()', '1:11'],
  ])('refuses %s', (query, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });

  it('names a covariance from both arguments, as the pages print covariance_x_y; an expression gives an empty part', () => {
    // Act
    const compiled = compile(
      `${PAIRS} | summarize covariance(x, y), covariancep(todouble(y), x), covarianceif(x + 1, y, true), variancepif(x, x > 1)`,
      duck,
    );
    // Assess
    expect(compiled.columns).toEqual([
      { name: 'covariance_x_y', type: 'real' },
      { name: 'covariancep_y_x', type: 'real' },
      { name: 'covarianceif__y', type: 'real' },
      { name: 'variancepif_x', type: 'real' },
    ]);
  });
});

describe('v11 refusals: each function refused at its name with its reason', () => {
  it.each([
    ['print r = set_equals(dynamic([1]), dynamic([1]))', 'set_difference'],
    ['print r = tdigest_isvalid(dynamic(null))', 'no Kusto documentation page'],
    ['print r = hll_isvalid(dynamic(null))', 'no Kusto documentation page'],
    ['print r = iscolumnexists("x")', 'column_ifexists'],
    ['print r = row_id()', 'row_number()'],
    ['print r = geo_line_to_s2cells(dynamic(null), 11)', "S2's region coverer"],
    ['print r = geo_info_from_ip_address("20.53.203.50")', 'GeoLite2'],
    ['print r = node_degree_in(1)', 'graph-match and graph-shortest-paths'],
    ['print r = node_degree_out(1)', 'graph-match and graph-shortest-paths'],
  ])('%s', (query, reason) => {
    // Act, Assess
    expectFunctionRefused(query, duck, reason);
  });
});

describe('v11 plugin refusals: each plugin refused at its name with its reason', () => {
  it.each([
    ['sql_request("Server=x", "select 1")', 'a service outside this one'],
    ['http_request("https://example.com")', 'a service outside this one'],
    ['cosmosdb_sql_request("c", "select 1")', 'a service outside this one'],
    ['python(typeof(*), "result = df")', "Kusto's language sandbox"],
    ['r(typeof(*), "result <- df")', "Kusto's language sandbox"],
    ['ai_embed_text("text", "https://x")', 'AI model endpoint'],
    ['diffpatterns_text(s, true)', 'how patterns are chosen'],
  ])('evaluate %s', (plugin, reason) => {
    // Act, Assess
    const name = /^\w+/.exec(plugin)![0];
    expectRefusedWithReason(`print s = "a" | evaluate ${plugin}`, duck, {
      position: '1:26',
      refusal: `the '${name}' plugin is not supported`,
      reason,
    });
  });
});

describe('v11 functions on Timestream', () => {
  it('refuses series_product naming the function and the engine', () => {
    // Act
    const error = compileFailure('print r = series_product(dynamic([1, 2]))', ts);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain('series_product() is not supported on the Timestream engine');
  });

  it('compiles the covariances with covar_samp and covar_pop', () => {
    // Act
    const compiled = compile(`${PAIRS} | summarize covariance(x, y), covariancepif(x, y, x > 1)`, ts);
    // Assess
    expect(compiled.sql).toContain('covar_samp(CAST(');
    expect(compiled.sql).toContain('covar_pop(CAST(CASE WHEN');
  });

  it("compiles geo_from_wkt with Trino's $1 groups, and no DuckDB 'g' flag", () => {
    // Act
    const compiled = compile('print r = geo_from_wkt("POINT (1 2)")', ts);
    // Assess
    expect(compiled.sql).toContain("'[$1,$2]'");
    expect(compiled.sql).toContain('regexp_like(');
    expect(compiled.sql).not.toContain("'g')");
    expect(compiled.sql).toContain('all_match(regexp_extract_all(');
  });
});

describe('run on DuckDB', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  const rows = (query: string): Promise<unknown[][]> => rowsOf(db, query);

  it('leaves out a pair with a null, gives 0 for one pair, and NaN for a NaN, by group', async () => {
    // Act
    const result = await rows(
      'datatable(g:long, x:real, y:real)[1, 1, 2, 1, 2, 4, 1, real(null), 100, 1, 3, real(null), 2, 5, 5, 3, 1, 1, 3, real(nan), 2]' +
        ' | summarize covariance(x, y), covariancep(x, y) by g | order by g asc',
    );
    // Assess: group 1 is the pairs (1, 2) and (2, 4); group 2 one pair; group 3 a NaN.
    expect(result).toEqual([
      [1, 1, 0.5],
      [2, 0, 0],
      [3, 'NaN', 'NaN'],
    ]);
  });

  it('variancepif is the population variance where the predicate holds (variancep of those rows), not varianceif', async () => {
    // Act
    const result = await rows(
      'range x from 1 to 100 step 1 | summarize variancepif(x, x % 2 == 0), varianceif(x, x % 2 == 0), p = variancep(iff(x % 2 == 0, x, long(null)))',
    );
    // Assess
    expect(result).toEqual([[833, 850, 833]]);
  });

  it('variance and stdev of huge finite reals are what IEEE doubles give: +Infinity or finite, by group', async () => {
    // Act: DuckDB's own var_samp stopped the query ("VARSAMP is out of range") for groups 1 and 2.
    const result = await rows(
      'datatable(g:long, x:real)[1, 1e200, 1, 3e200, 2, 1.7976931348623157e308, 2, -1.7976931348623157e308, 3, 1, 3, 3, 4, 1e300, 4, 1e300]' +
        ' | summarize variance(x), variancep(x), stdev(x), stdevp(x), stdevif(x, x > 0) by g | order by g asc',
    );
    // Assess: group 1's variance is 2e400, past the largest double, and its deviation sqrt(2e400).
    expect(result).toEqual([
      [1, 'Infinity', 'Infinity', 1.414213562373095e200, 1e200, 1.414213562373095e200],
      [2, 'Infinity', 'Infinity', 'Infinity', 1.7976931348623157e308, 0],
      [3, 2, 1, Math.SQRT2, 1, Math.SQRT2],
      [4, 0, 0, 0, 0, 0],
    ]);
  });

  it.each([
    ['dynamic([])', 1],
    ['dynamic([2, "x", null, 1.5])', 3],
    ['dynamic([2.5, -2])', -5],
    ['dynamic({"a": 1})', null],
    ['dynamic(null)', null],
  ])('series_product(%s) is %j', async (series, expected) => {
    // Act, Assess
    expect(await rows(`print r = series_product(${series})`)).toEqual([[expected]]);
  });

  it.each([
    // Keywords in any case, no space before the parenthesis, spaces around.
    [' point(1 2) ', { type: 'Point', coordinates: [1, 2] }],
    // MULTIPOINT's points in parentheses; negative and exponent numbers.
    [
      'MULTIPOINT ((1 1), (2.5 -2e1))',
      {
        type: 'MultiPoint',
        coordinates: [
          [1, 1],
          [2.5, -20],
        ],
      },
    ],
    ['MULTIPOINT (1 1)', { type: 'MultiPoint', coordinates: [[1, 1]] }],
    ['MULTIPOINT ((1 1))', { type: 'MultiPoint', coordinates: [[1, 1]] }],
    [
      'POLYGON ((0 0, 2 0, 2 2, 0 0), (0.5 0.5, 1 0.5, 1 1, 0.5 0.5))',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [2, 0],
            [2, 2],
            [0, 0],
          ],
          [
            [0.5, 0.5],
            [1, 0.5],
            [1, 1],
            [0.5, 0.5],
          ],
        ],
      },
    ],
    [
      'GEOMETRYCOLLECTION (MULTIPOINT (1 1), MULTILINESTRING ((1 1, 2 2)), MULTIPOLYGON (((0 0, 2 0, 2 2, 0 0))))',
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'MultiPoint', coordinates: [[1, 1]] },
          {
            type: 'MultiLineString',
            coordinates: [
              [
                [1, 1],
                [2, 2],
              ],
            ],
          },
          {
            type: 'MultiPolygon',
            coordinates: [
              [
                [
                  [0, 0],
                  [2, 0],
                  [2, 2],
                  [0, 0],
                ],
              ],
            ],
          },
        ],
      },
    ],
    [
      'GEOMETRYCOLLECTION (POINT (1 1),\r\nPOINT (2 2))',
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1, 1] },
          { type: 'Point', coordinates: [2, 2] },
        ],
      },
    ],
    // The largest doubles stay; a number below the smallest is 0, as a double reads it.
    ['POINT (1.7976931348623157e308 1e-400)', { type: 'Point', coordinates: [1.7976931348623157e308, 0] }],
  ])('geo_from_wkt(%j)', async (wkt, expected) => {
    // Act, Assess
    expect(await rows(`print r = geo_from_wkt(${JSON.stringify(wkt)})`)).toEqual([[expected]]);
  });

  it.each([
    '',
    'POINT EMPTY',
    'POINT Z (1 2 3)',
    'POINT (1)',
    'POINT (.5 1)',
    'POINT (01 1)',
    'LINESTRING (1 2)',
    'POLYGON ((0 0, 1 1, 0 0))',
    'CIRCLE (1 2)',
    'POINT (1 2) POINT (3 4)',
    'GEOMETRYCOLLECTION (GEOMETRYCOLLECTION (POINT (1 2)))',
    'GEOMETRYCOLLECTION ()',
    // A coordinate no double holds: invalid text, not a shape with a null coordinate.
    'POINT (1e400 0)',
    'LINESTRING (0 0, 1 -1e309)',
    'GEOMETRYCOLLECTION (POINT (1 2), POINT (3 4e999))',
  ])('geo_from_wkt(%j) is null: text the page converts to no GeoJSON', async (wkt) => {
    // Act, Assess
    expect(await rows(`print r = isnull(geo_from_wkt(${JSON.stringify(wkt)}))`)).toEqual([[true]]);
  });
});
