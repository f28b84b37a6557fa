// make-series and the series functions at the compile() level: what each dialect accepts or refuses,
// the errors' positions, the limits, and a cross-check of make-series against summarize ... by bin()
// on the telemetry fixture. Results of the documented examples are in the conformance corpus
// (test/conformance/cases/op-make-series-*.json, fn-series-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, QueryError, type CompileOptions, type QueryLimits } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect'], limits: Partial<QueryLimits> = {}): CompileOptions => ({
  ...GOLDEN_OPTIONS,
  dialect,
  limits: { compileBudgetMs: 60_000, ...limits },
});

const failure = (query: string, dialect: CompileOptions['dialect'] = 'duckdb', limits: Partial<QueryLimits> = {}) =>
  compileFailure(query, options(dialect, limits));

async function run(db: DuckDBConnection, query: string): Promise<unknown[][]> {
  const compiled = compile(query, options('duckdb'));
  return convertRows(
    await runSql(db, compiled.sql),
    compiled.columns.map((c) => c.type),
  );
}

describe('make-series', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('is refused on Timestream at the operator, naming the operator and the engine', () => {
    // Act
    const error = failure('States\n| make-series count() on Timestamp step 1h', 'timestream');
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toBe('2:3: make-series is not supported on the timestream engine');
  });

  it.each([
    ['States | make-series count() on Timestamp step 1h by Value', 'QUERY_SEMANTIC', 'cannot group by a dynamic value'],
    [
      'States | make-series count() on Timestamp step 1h by DeviceId, DeviceId',
      'QUERY_SEMANTIC',
      "duplicate column name 'DeviceId'",
    ],
    [
      'States | make-series Timestamp = count() on Timestamp step 1h',
      'QUERY_SEMANTIC',
      "duplicate column name 'Timestamp'",
    ],
    ['States | make-series count() on Timestamp step -1h', 'QUERY_SEMANTIC', 'greater than 0'],
    // A 1tick literal is refused where it is written (100 ns precision, docs/query-api.md "Precision").
    [
      'States | make-series count() on Timestamp step 1tick',
      'QUERY_UNSUPPORTED',
      '1:48: this timespan needs 100-nanosecond precision',
    ],
    ['States | make-series count() on Timestamp from 1 step 1h', 'QUERY_SEMANTIC', 'from bound must be a datetime'],
    ['States | make-series count() default = "x" on Timestamp step 1h', 'QUERY_SEMANTIC', 'default must be a number'],
    [
      'States | make-series count() on Timestamp step 1h | extend y = Timestampp',
      'QUERY_SEMANTIC',
      "did you mean 'Timestamp'",
    ],
    ['States | make-series DeviceId on Timestamp step 1h', 'QUERY_SEMANTIC', 'must be an aggregation'],
    [
      'States | make-series arg_max(Timestamp, *) on Timestamp step 1h',
      'QUERY_UNSUPPORTED',
      'arg_max() is not supported in make-series',
    ],
    ['States | make-series kind=nonempty count() on Timestamp step 1m', 'QUERY_SEMANTIC', 'needs both from and to'],
    ['States | make-series kind=full count() on Timestamp step 1m', 'QUERY_SYNTAX', 'kind is nonempty'],
    ['States | make-series hint.strategy=shuffle count() on Timestamp step 1m', 'QUERY_UNSUPPORTED', "'hint.strategy'"],
    ['States | make-series count() on Timestamp in range(ago(1d), now()) ', 'QUERY_SYNTAX', "expected ','"],
    ['print x = dynamic([1]) | extend s = series_stats(x)', 'QUERY_UNSUPPORTED', 'series_stats_dynamic()'],
  ])('%s is refused with %s', (query, code, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/^1:\d+: /);
    expect(error.message).toContain(message);
  });

  it("gives the series of rows the query writes in the order of their first row (the make-series page's a before b), a sort's order first", async () => {
    // Prepare: c's first row comes first, b's last; the keys sorted would be a, b, c.
    const data = 'datatable(x:long, g:string, v:long)[4, "c", 1, 1, "a", 10, 2, "a", 20, 5, "c", 7, 3, "b", 5]';
    const series = '| make-series s = sum(v) on x from 0 to 6 step 3 by g | project g, s';
    // Act
    const asWritten = await run(db, `${data} ${series}`);
    const sorted = await run(db, `${data} | sort by v asc ${series}`);
    // Assess
    expect(asWritten).toEqual([
      ['c', [0, 8]],
      ['a', [30, 0]],
      ['b', [0, 5]],
    ]);
    expect(sorted).toEqual([
      ['c', [0, 8]],
      ['b', [0, 5]],
      ['a', [30, 0]],
    ]);
  });

  it('gives kind=nonempty with by one row of defaults and empty keys when no row is in the bounds, and the groups otherwise', async () => {
    // Prepare
    const series =
      '| make-series kind=nonempty total = sum(v) default = -1 on T from datetime(2020-01-01) to datetime(2020-01-03) step 1d by k, n';
    const data = 'datatable(T:datetime, k:string, n:long, v:long)[datetime(2020-01-02), "a", 7, 5]';
    // Act
    const empty = await run(db, `${data} | where v > 5 ${series}`);
    const outside = await run(db, `${data} | extend T = T + 365d ${series}`);
    const present = await run(db, `${data} ${series}`);
    // Assess
    const axis = ['2020-01-01T00:00:00.0000000Z', '2020-01-02T00:00:00.0000000Z'];
    expect(empty).toEqual([['', null, [-1, -1], axis]]);
    expect(outside).toEqual([['', null, [-1, -1], axis]]);
    expect(present).toEqual([['a', 7, [-1, 5], axis]]);
  });

  it("takes a bound left out from each series' own data (the page: the first/last bin that has data in each series)", async () => {
    // Prepare: a has rows at t 1 and 3, b at 5 and 7; the null key is a group of its own.
    const data = 'datatable(k:string, t:long, v:long)["a",1,1,"a",3,3,"b",5,5,"b",7,7]';
    const series = (bounds: string, by = ' by k | sort by k asc'): Promise<unknown[][]> =>
      run(db, `${data} | make-series s=sum(v) default=0 on t${bounds} step 2${by}`);
    // Act
    const neither = await series('');
    const fromOnly = await series(' from 0');
    const toOnly = await series(' to 9');
    const both = await series(' from 0 to 8');
    const nullKey = await run(
      db,
      `${data} | extend n = iff(k == "a", long(null), 1) | make-series s=sum(v) on t step 2 by n | sort by n asc`,
    );
    const whole = await series('', '');
    // Assess
    expect(neither).toEqual([
      ['a', [1, 3], [0, 2]],
      ['b', [5, 7], [4, 6]],
    ]);
    expect(fromOnly).toEqual([
      ['a', [1, 3], [0, 2]],
      ['b', [0, 0, 5, 7], [0, 2, 4, 6]],
    ]);
    expect(toOnly).toEqual([
      ['a', [1, 3, 0, 0, 0], [0, 2, 4, 6, 8]],
      ['b', [5, 7, 0], [4, 6, 8]],
    ]);
    expect(both).toEqual([
      ['a', [1, 3, 0, 0], [0, 2, 4, 6]],
      ['b', [0, 0, 5, 7], [0, 2, 4, 6]],
    ]);
    expect(nullKey).toEqual([
      [null, [1, 3], [0, 2]],
      [1, [5, 7], [4, 6]],
    ]);
    expect(whole).toEqual([
      [
        [1, 3, 5, 7],
        [0, 2, 4, 6],
      ],
    ]);
  });

  it('puts a NaN or infinite real axis value in no bin, as a null (the engine failed the query)', async () => {
    // Act
    const withNan = await run(
      db,
      'datatable(d:real)[1.0, real(nan), 3.0, real(null)] | make-series n=count() on d step 1',
    );
    const withInf = await run(
      db,
      'datatable(d:real)[1.0, real(+inf), 2.0, real(-inf)] | make-series n=count() on d step 0.5',
    );
    const onlyNan = await run(db, 'datatable(d:real)[real(nan)] | make-series n=count() on d step 1');
    // Assess
    expect(withNan).toEqual([
      [
        [1, 0, 1],
        [1, 2, 3],
      ],
    ]);
    expect(withInf).toEqual([
      [
        [1, 0, 1],
        [1, 1.5, 2],
      ],
    ]);
    expect(onlyNan).toEqual([]);
  });

  it('accepts hint.shufflekey and the bounds as scalar expressions (ago, now)', () => {
    // Act
    const { columns } = compile(
      'States | make-series hint.shufflekey=DeviceId c = count() on Timestamp from ago(2h) to now() step 30m by DeviceId',
      options('duckdb'),
    );
    // Assess
    expect(columns).toEqual([
      { name: 'DeviceId', type: 'string' },
      { name: 'c', type: 'dynamic' },
      { name: 'Timestamp', type: 'dynamic' },
    ]);
  });

  it.each([
    ['by bin(Timestamp, 1d)', ['Timestamp:datetime', 'count_:dynamic', 'Timestamp1:dynamic']],
    ['by count_ = DeviceId', ['count_:string', 'count_1:dynamic', 'Timestamp:dynamic']],
    [
      'by Column1 = DeviceId, strlen(Name) + 1',
      ['Column1:string', 'Column11:long', 'count_:dynamic', 'Timestamp:dynamic'],
    ],
  ])('names the columns of make-series ... %s as Kusto.Language does', (by, expected) => {
    // Act
    const { columns } = compile(`States | make-series count() on Timestamp step 1h ${by}`, options('duckdb'));
    // Assess
    expect(columns.map((c) => `${c.name}:${c.type}`)).toEqual(expected);
  });

  it('makes a written aggregation name meeting a default one unique (count(), count_ = sum(1))', () => {
    // Act
    const { columns } = compile(
      'States | make-series count(), count_ = sum(1) on Timestamp step 1h',
      options('duckdb'),
    );
    // Assess
    expect(columns.map((c) => c.name)).toEqual(['count_', 'count_1', 'Timestamp']);
  });

  it('counts as one stacked operator towards maxDepth', () => {
    // Act
    const query = 'States | where true | take 5 | make-series count() on Timestamp step 1h';
    const error = failure(query, 'duckdb', { maxDepth: 2 });
    // Assess
    expect(error.code).toBe('QUERY_TOO_DEEP');
    expect(error.message).toMatch(new RegExp(`^1:${query.indexOf('make-series') + 1}: `));
  });

  it('gives per bin what summarize ... by bin() gives, and the default elsewhere, on the fixture', async () => {
    // Prepare
    const binned = await run(
      db,
      'States | summarize c = count(), s = sum(todouble(Value)) by DeviceId, t = bin(Timestamp, 30m) | sort by DeviceId asc, t asc',
    );
    // Act
    const series = await run(
      db,
      'States | make-series c = count(), s = sum(todouble(Value)) default = -1 on Timestamp from datetime(2024-03-01) to datetime(2024-03-02) step 30m by DeviceId | sort by DeviceId asc',
    );
    // Assess
    const expected = new Map<string, { c: number[]; s: number[] }>();
    for (const [device, t, c, s] of binned as [string, string, number, number][]) {
      const entry = expected.get(device) ?? { c: new Array<number>(48).fill(0), s: new Array<number>(48).fill(-1) };
      const bin = (Date.parse(t) - Date.parse('2024-03-01T00:00:00Z')) / 1_800_000;
      entry.c[bin] = c;
      entry.s[bin] = s;
      expected.set(device, entry);
    }
    expect(series.map((r) => r[0])).toEqual([...expected.keys()]);
    for (const [device, c, s, axis] of series as [string, number[], number[], string[]][]) {
      expect(c, device).toEqual(expected.get(device)!.c);
      expect(s, device).toEqual(expected.get(device)!.s);
      expect(axis).toHaveLength(48);
      expect(axis[47]).toBe('2024-03-01T23:30:00.0000000Z');
    }
  });

  it('runs on DuckDB for generated combinations of aggregations, defaults, bounds, steps, by and what follows', async () => {
    // Prepare: columns that exist in the source, so the queries get past the analyzer.
    const numbers = 'range x from -5 to 5 step 1 | extend t = datetime(2024-03-01) + x * 1h, v = x * 1.5, g = x % 3';
    const queries = fc.sample(
      fc
        .tuple(
          fc.array(
            fc.constantFrom(
              'count()',
              'sum(v)',
              'avg(v)',
              'dcount(g)',
              'stdev(v)',
              'variance(v)',
              'percentile(v, 50)',
              'sumif(v, v > 0)',
              'avgif(v, g == 1)',
            ),
            { minLength: 1, maxLength: 3 },
          ),
          fc.constantFrom('', ' default = double(null)', ' default = 2', ' default = 1.5'),
          fc.constantFrom(
            ['t', ' from datetime(2024-03-01) to datetime(2024-03-01 03:00) step 1h'],
            ['t', ' step 7m'],
            ['t', ' from datetime(2024-02-29 22:00) step 1h'],
            ['t', ' in range(datetime(2024-03-01), datetime(2024-03-01 02:00), 30m)'],
            ['x', ' from -3 to 3 step 2'],
            ['x', ' to 2 step 0.5'],
            ['v', ' in range(-2, 2, 1)'],
            ['v', ' step 1'],
          ),
          fc.constantFrom('', ' by g', ' by k = g > 0, g'),
          fc.constantFrom(
            '',
            ' | extend f = series_fill_linear(count_)',
            ' | project series_stats(count_)',
            ' | count',
          ),
        )
        .map(
          ([aggs, d, [axis, bounds], by, after]) =>
            `${numbers} | make-series count(), ${aggs.map((a) => a + d).join(', ')} on ${axis}${bounds}${by}${after}`,
        ),
      { seed: 42, numRuns: 30 },
    );
    // Act
    const failures: string[] = [];
    let ran = 0;
    for (const query of queries) {
      try {
        await run(db, query);
        ran++;
      } catch (e) {
        // A query the analyzer refuses (a name clash of two aggregations) is fine; an engine error is not.
        if (!(e instanceof QueryError)) failures.push(`${query}: ${String(e)}`);
      }
    }
    // Assess
    expect(failures).toEqual([]);
    expect(ran).toBeGreaterThan(20);
  }, 120_000);

  it('expands series_stats(x) in extend next to the input columns, typed per statistic', () => {
    // Act
    const { columns } = compile('print x = dynamic([1, 2]) | extend series_stats(x)', options('duckdb'));
    // Assess
    expect(columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'x:dynamic',
      'series_stats_x_min:real',
      'series_stats_x_min_idx:long',
      'series_stats_x_max:real',
      'series_stats_x_max_idx:long',
      'series_stats_x_avg:real',
      'series_stats_x_stdev:real',
      'series_stats_x_variance:real',
    ]);
  });

  it('fills like a reference implementation of the rules on the docs pages, for generated arrays with gaps', async () => {
    // Prepare: the docs' rules written plainly (series_fill_forward/backward/linear pages).
    const forward = (a: (number | null)[]): (number | null)[] => {
      let last: number | null = null;
      return a.map((x) => (x === null ? last : (last = x)));
    };
    const backward = (a: (number | null)[]): (number | null)[] => forward([...a].reverse()).reverse();
    const linear = (a: (number | null)[]): (number | null)[] =>
      a.map((x, i) => {
        if (x !== null) return x;
        const p = a.slice(0, i).findLastIndex((y) => y !== null);
        const q = a.findIndex((y, j) => j > i && y !== null);
        if (p < 0 && q < 0) return 0;
        if (p < 0) return a[q]!;
        if (q < 0) return a[p]!;
        // + 0: a truncated -0.4 is 0 in the JSON the engine writes, not -0.
        return Math.trunc(a[p]! + ((a[q]! - a[p]!) * (i - p)) / (q - p)) + 0;
      });
    const arrays = fc.sample(
      fc.array(fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 2 }), { maxLength: 30 }),
      {
        seed: 7,
        numRuns: 25,
      },
    );
    for (const a of arrays) {
      // Act
      const [row] = await run(
        db,
        `print f = series_fill_forward(dynamic(${JSON.stringify(a)})), b = series_fill_backward(dynamic(${JSON.stringify(a)})), l = series_fill_linear(dynamic(${JSON.stringify(a)}))`,
      );
      // Assess
      expect(row, JSON.stringify(a)).toEqual([forward(a), backward(a), linear(a)]);
    }
  }, 120_000);

  it('refuses the series functions on Timestream, naming the function and the engine', () => {
    // Act
    const error = failure('print x = series_fill_forward(dynamic([1, null]))', 'timestream');
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toContain('series_fill_forward');
    expect(error.message).toMatch(/timestream/i);
  });
});
