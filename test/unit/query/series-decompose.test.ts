// series_decompose and series_decompose_forecast (lib/query/catalog/functions-v10-series-decompose*.ts):
// argument errors at their position, the columns, the Timestream refusal, and what this service
// answers where the pages are silent (nulls, no point to learn from). Their results from the pages'
// definitions are pinned by the conformance corpus (test/conformance/cases/fn-series3-*.json).
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { queryRunner } from './geocell-queries';
import { baseOptions, compileFailure, expectRefusedAt } from './compile-failure';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };
const SEMANTIC = 'QUERY_SEMANTIC';
const UNSUPPORTED = 'QUERY_UNSUPPORTED';

describe('series_decompose: argument errors', () => {
  it.each([
    [
      'print y = dynamic([1]), p = 2 | extend series_decompose(y, p)',
      SEMANTIC,
      "argument 'seasonality' must be a constant integer (a literal)",
      '1:60',
    ],
    ['print y = dynamic([1]) | extend series_decompose(y, 2.5)', SEMANTIC, 'must be an integer constant', '1:53'],
    ['print y = dynamic([1]) | extend series_decompose(y, -2)', SEMANTIC, '0 (none) or a positive number', '1:53'],
    ['print y = dynamic([1]) | extend series_decompose(y, -1)', SEMANTIC, 'needs series_periods_detect', '1:53'],
    // The omitted seasonality is the default -1: refused at the call.
    ['print y = dynamic([1]) | extend series_decompose(y)', SEMANTIC, 'give the period in bins', '1:33'],
    ["print y = dynamic([1]) | extend series_decompose(y, 3, 'linear')", SEMANTIC, "trend must be 'avg'", '1:56'],
    ["print y = dynamic([1]) | extend series_decompose(y, 3, 'avg', -1)", SEMANTIC, 'must not be negative', '1:63'],
    [
      "print y = dynamic([1]) | extend series_decompose(y, 3, 'avg', 0, 0.6)",
      UNSUPPORTED,
      'Seasonality_threshold applies only to seasonality -1',
      '1:66',
    ],
    ['print y = dynamic([1]) | extend (a, b, c, d, e) = series_decompose(y, 3)', SEMANTIC, 'gives 4 columns', '1:33'],
    // Inside another expression it is not rewritten into columns: the call lacks its component.
    [
      'print y = dynamic([1]) | extend n = array_length(series_decompose(y, 3))',
      SEMANTIC,
      'series_decompose() takes',
      '1:50',
    ],
  ])('refuses %s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });
});

describe('series_decompose_forecast: argument errors', () => {
  it.each([
    ['print y = dynamic([1]) | extend f = series_decompose_forecast(y, 1)', SEMANTIC, 'series_periods_detect', '1:37'],
    [
      "print y = dynamic([1]) | extend f = series_decompose_forecast(y, 1, 3, 'avg', 0.6)",
      SEMANTIC,
      'Seasonality_threshold applies only',
      '1:79',
    ],
    [
      "print y = dynamic([1]) | extend f = series_decompose_forecast(y, 1, 3, 'lin')",
      SEMANTIC,
      'trend must be',
      '1:72',
    ],
    [
      'print y = dynamic([1]) | extend f = series_decompose_forecast(y, -1, 3)',
      SEMANTIC,
      'must not be negative',
      '1:66',
    ],
    ['print y = dynamic([1]) | extend series_decompose_forecast(y, 1, 3)', UNSUPPORTED, 'name the column', '1:33'],
  ])('refuses %s', (query, code, message, position) => {
    // Act, Assess
    expectRefusedAt(query, duck, { code, message, position });
  });
});

describe('series_decompose: columns and engines', () => {
  const names = (query: string): string[] => compile(query, duck).columns.map((c) => c.name);

  it('names the four columns after the argument, as Kusto.Language does, all dynamic', () => {
    // Act
    const columns = compile('print y = dynamic([1, 2]) | project series_decompose(y, 2)', duck).columns;
    // Assess
    expect(columns).toEqual(
      ['baseline', 'seasonal', 'trend', 'residual'].map((c) => ({ name: `series_decompose_y_${c}`, type: 'dynamic' })),
    );
  });

  it('keeps all four columns when fewer names are given, the first named by Name =, as Kusto.Language does', () => {
    // Act, Assess
    expect(names('print y = dynamic([1]) | extend (b, s) = series_decompose(y, 2)')).toEqual([
      'y',
      'b',
      's',
      'series_decompose_y_trend',
      'series_decompose_y_residual',
    ]);
    expect(names('print y = dynamic([1]) | extend b = series_decompose(y, 2)')).toEqual([
      'y',
      'b',
      'series_decompose_y_seasonal',
      'series_decompose_y_trend',
      'series_decompose_y_residual',
    ]);
    expect(names('print y = dynamic([1]) | project series_decompose(series_add(y, 1), 2)')[0]).toBe(
      'series_decompose__baseline',
    );
  });

  it('writes the decomposition once in the same text for every column, so that DuckDB computes it once', () => {
    // Act
    const sql = compile('print y = dynamic([1, 2]) | project series_decompose(y, 2, "linefit")', duck).sql;
    // Assess: four reads of one bag whose text is the same each time.
    const bag = sql.slice(sql.indexOf('json_extract(') + 'json_extract('.length, sql.indexOf(", '/baseline')"));
    for (const component of ['baseline', 'seasonal', 'trend', 'residual'])
      expect(sql).toContain(`json_extract(${bag}, '/${component}')`);
  });

  it.each([
    ['print y = dynamic([1]) | extend series_decompose(y, 2)', 'series_decompose'],
    ['print y = dynamic([1]) | extend f = series_decompose_forecast(y, 1, 2)', 'series_decompose_forecast'],
  ])('refuses %s on Timestream naming the function and the engine', (query, fn) => {
    // Act
    const error = compileFailure(query, ts);
    // Assess
    expect(error.code).toBe(UNSUPPORTED);
    expect(error.message).toContain(`${fn}() is not supported on the`);
  });
});

describe('series_decompose: where the pages are silent, no answer rather than a guess', () => {
  let run: (query: string) => Promise<unknown[][]>;
  beforeAll(async () => {
    run = await queryRunner();
  });

  it.each([
    ['a null element', 'dynamic([1, null, 3])', '2'],
    ['a string element', 'dynamic([1, "2", 3])', '0'],
    ['not an array', 'dynamic({"a": 1})', '0'],
    ['every point a test point', 'dynamic([1, 2, 3])', '3'],
    ['a negative number of test points', 'dynamic([1, 2, 3])', 'toint(-1)'],
  ])('gives null components for %s', async (_what, series, points) => {
    // Act
    const rows = await run(`print y = ${series} | project series_decompose(y, 1, 'avg', ${points})`);
    // Assess
    expect(rows).toEqual([[null, null, null, null]]);
  });

  it('gives empty components for an empty series', async () => {
    // Act
    const rows = await run("print y = dynamic([]) | project series_decompose(y, 2, 'linefit')");
    // Assess
    expect(rows).toEqual([[[], [], [], []]]);
  });

  it('gives null where a phase has no learning point (a period longer than the points learnt from)', async () => {
    // Act: 3 points, the last 1 a test point, period 3: phase 2 is only in the test point.
    const rows = await run("print y = dynamic([1, 2, 3]) | project (b, s) = series_decompose(y, 3, 'none', 1)");
    // Assess
    expect(rows).toEqual([
      [
        [1, 2, null],
        [1, 2, null],
        [0, 0, 0],
        [0, 0, null],
      ],
    ]);
  });

  it('answers the largest long period (past 2^53, exact in the SQL) as a period of the series length: one phase per point', async () => {
    // Arrange: with a period at least the length, point k is alone in phase k (k mod period = k).
    const y = 'dynamic([1, 2, 3, 4, 5, 6])';
    const decompose = (period: string) => `print y = ${y} | project series_decompose(y, ${period}, 'linefit', 1)`;
    const forecast = (period: string) => `print f = series_decompose_forecast(${y}, 2, ${period})`;
    // Act, Assess
    expect(await run(decompose('9223372036854775807'))).toEqual(await run(decompose('6')));
    expect(await run(forecast('9223372036854775807'))).toEqual(await run(forecast('6')));
    expect(await run(forecast('9223372036854775807'))).toEqual([[[1, 2, 3, 4, null, null]]]);
  });

  it("writes a linefit of one point (series_fit_line's 0 / 0 slope) as Kusto writes NaN", async () => {
    // Act
    const rows = await run("print y = dynamic([5]) | project series_decompose(y, 0, 'linefit')");
    // Assess
    expect(rows).toEqual([[['NaN'], [0], ['NaN'], ['NaN']]]);
  });

  it('takes a computed number of test points (the forecast page computes it from the horizon)', async () => {
    // Act
    const rows = await run(
      "print y = dynamic([1, 2, 3, 1, 2, 3, 0, 0, 0]), h = 3 | project f = series_decompose_forecast(y, h, 3, 'none')",
    );
    // Assess
    expect(rows).toEqual([[[1, 2, 3, 1, 2, 3, 1, 2, 3]]]);
  });
});
