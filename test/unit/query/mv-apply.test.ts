// mv-apply at the compile() level: the Timestream refusal and its position, sub-query operators run
// per input row (sort, nested mv-apply, columns dropped and brought back), and a cross-check against
// the same per-row work written with mv-expand and summarize by a row key on the telemetry fixture.
// The documented examples are in the conformance corpus (test/conformance/cases/op-mv-apply-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

const failure = (query: string, dialect: CompileOptions['dialect'] = 'duckdb') =>
  compileFailure(query, options(dialect));

describe('mv-apply', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function run(query: string): Promise<{ columns: string[]; rows: unknown[][] }> {
    const compiled = compile(query, options('duckdb'));
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return { columns: compiled.columns.map((c) => c.name), rows };
  }

  it('is refused on Timestream at the operator, naming the operator and the engine', () => {
    // Act
    const error = failure('States\n| mv-apply v = Value on (take 1)', 'timestream');
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toBe('2:3: mv-apply is not supported on the timestream engine');
  });

  it("sorts each row's elements apart from the other rows'", async () => {
    // Act
    const { columns, rows } = await run(
      'datatable (k:string, a:dynamic) ["x", dynamic([3, 1, 2]), "y", dynamic([0, 9])]\n' +
        '| mv-apply e = a to typeof(long) on (sort by e asc) | project k, e',
    );
    // Assess
    expect(columns).toEqual(['k', 'e']);
    expect(rows).toEqual([
      ['x', 1],
      ['x', 2],
      ['x', 3],
      ['y', 0],
      ['y', 9],
    ]);
  });

  it('runs a nested mv-apply per element of the outer one', async () => {
    // Act
    const { rows } = await run(
      'datatable (k:string, a:dynamic) ["x", dynamic([[1, 2], [3]]), "y", dynamic([[4, 5, 6]])]\n' +
        '| mv-apply inner = a on (mv-apply e = inner to typeof(long) on (summarize s = sum(e)) | summarize total = sum(s), n = count())',
    );
    // Assess
    expect(rows).toEqual(
      expect.arrayContaining([
        ['x', [[1, 2], [3]], 6, 2],
        ['y', [[4, 5, 6]], 15, 1],
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it("names no internal table in a search's $table inside the sub-query", async () => {
    // Act
    const got = await run(
      'print a = dynamic([1, 2]) | mv-apply x = a to typeof(long) on (search "2" | project $table)',
    );
    // Assess: the rows are no table a user named, as print's are (it showed an engine-internal name)
    expect(got.rows).toEqual([
      [[1, 2], ''],
      [[1, 2], ''],
    ]);
  });

  it('drops a row whose sub-query returns nothing, and repeats the row for each result row', async () => {
    // Act
    const { rows } = await run(
      'datatable (k:string, a:dynamic) ["x", dynamic([1, 2]), "y", dynamic([]), "z", dynamic([5])]\n' +
        '| mv-apply e = a to typeof(long) on (where e > 1) | project k, e',
    );
    // Assess
    expect(rows).toEqual(
      expect.arrayContaining([
        ['x', 2],
        ['z', 5],
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it("keeps each row's distinct values apart from the other rows' with distinct, and its columns with project-keep", async () => {
    // Prepare
    const data = 'datatable (k:string, a:dynamic) ["x", dynamic([1, 2, 2, 1]), "y", dynamic([2, 2]), "z", dynamic([])]';
    // Act
    const distinct = await run(
      `${data} | mv-apply e = a to typeof(long) on (distinct e) | project k, e | sort by k asc, e asc`,
    );
    const kept = await run(`${data} | mv-apply e = a to typeof(long) on (extend d = e * 10, w = 1 | project-keep d)`);
    // Assess
    expect(distinct.rows).toEqual([
      ['x', 1],
      ['x', 2],
      ['y', 2],
    ]);
    expect(kept.columns).toEqual(['k', 'a', 'd']);
    expect(kept.rows.map((r) => [r[0], r[2]])).toEqual(
      expect.arrayContaining([
        ['x', 10],
        ['x', 20],
        ['y', 20],
      ]),
    );
    expect(kept.rows).toHaveLength(6);
  });

  it("moves the sub-query's columns with project-reorder, the row's own columns first as before", async () => {
    // Act
    const { columns, rows } = await run(
      'datatable (k:string, a:dynamic) ["x", dynamic([1, 2])] | mv-apply e = a to typeof(long) on (extend p = e * 2, q = e * 3 | project-reorder q, p) | sort by e asc',
    );
    // Assess
    expect(columns).toEqual(['k', 'a', 'q', 'p', 'e']);
    expect(rows).toEqual([
      ['x', [1, 2], 3, 2, 1],
      ['x', [1, 2], 6, 4, 2],
    ]);
  });

  it("gives every row its summarize's row, the aggregates' defaults where the sub-query emptied the sub-table (summarize page)", async () => {
    // Act
    const summarized = await run(
      'datatable (id:long, a:dynamic) [1, dynamic([-5]), 2, dynamic([3, 4]), 3, dynamic([])]\n' +
        '| mv-apply e = a to typeof(long) on (where e > 0 | summarize c = count(), s = sum(e), l = make_list(e), m = max(e))\n' +
        '| project id, c, s, l, m',
    );
    const counted = await run(
      'datatable (id:long, a:dynamic) [1, dynamic([-5]), 2, dynamic([3, 4])] | mv-apply e = a to typeof(long) on (where e > 0 | count)',
    );
    // Assess
    expect(summarized.rows).toEqual(
      expect.arrayContaining([
        [1, 0, 0, [], null],
        [2, 2, 7, [3, 4], 4],
        [3, 0, 0, [], null],
      ]),
    );
    expect(summarized.rows).toHaveLength(3);
    expect(counted.rows).toEqual(
      expect.arrayContaining([
        [1, [-5], 0],
        [2, [3, 4], 2],
      ]),
    );
    expect(counted.rows).toHaveLength(2);
  });

  it('runs a summarize of arg_max(x, *) per row, also beside a sub-table the where emptied', async () => {
    // Act
    const { columns, rows } = await run(
      'datatable (a:dynamic, k:long) [dynamic([1, 2]), 1, dynamic([-1]), 2]\n' +
        '| mv-apply x = a to typeof(long) on (where x > 0 | summarize c = count(), arg_max(x, *))',
    );
    // Assess: the second row's sub-table is empty, its count 0 (the summarize page's default).
    expect(columns).toEqual(['a', 'k', 'c', 'x']);
    expect(rows).toEqual(expect.arrayContaining([[[1, 2], 1, 2, 2]]));
    expect(rows.map((r) => r[2]).sort()).toEqual([0, 2]);
  });

  it("takes each row's first elements in the order a sort inside sets, also with operators between (take page)", async () => {
    // Act
    const taken = await run(
      'datatable (id:long, a:dynamic) [1, dynamic([7, -7, 100, 2]), 2, dynamic([5, 1])]\n' +
        '| mv-apply e = a to typeof(long) on (sort by e asc | take 2) | project id, e',
    );
    const listed = await run(
      'datatable (id:long, a:dynamic) [1, dynamic([7, -7, 100, 2])]\n' +
        '| mv-apply e = a to typeof(long) on (order by e desc | extend f = e * 2 | where f > 0 | limit 1 | summarize l = make_list(e))',
    );
    // Assess
    expect(taken.rows).toEqual(
      expect.arrayContaining([
        [1, -7],
        [1, 2],
        [2, 1],
        [2, 5],
      ]),
    );
    expect(taken.rows).toHaveLength(4);
    expect(listed.rows).toEqual([[1, [7, -7, 100, 2], [100]]]);
  });

  it('agrees with mv-expand and summarize by a row key on the fixture', async () => {
    // Prepare: a per-row sum of an array made from each row, written both ways.
    const source =
      'States | extend arr = pack_array(strlen(Name), strlen(DeviceId), strlen(MessageId)), key = MessageId';
    // Act
    const applied = await run(
      `${source} | mv-apply e = arr to typeof(long) on (top 2 by e | summarize s = sum(e)) | project key, s`,
    );
    const expanded = await run(
      `${source} | mv-expand e = arr to typeof(long) | summarize s = sum(e) - min(e) by key, Name, DeviceId, Timestamp, NameId`,
    );
    // Assess
    expect(applied.rows.length).toBeGreaterThan(0);
    const sums = (rows: unknown[][], at: number): string[] => rows.map((r) => String(r[at])).sort();
    expect(sums(applied.rows, 1)).toEqual(sums(expanded.rows, 5));
  });

  it("runs window functions over each row's elements in their array order (series_rate_fl's prev())", async () => {
    // Act
    const { columns, rows } = await run(
      'datatable (a:dynamic) [dynamic([1, 2]), dynamic([5, 3, 4])]\n' +
        '| mv-apply e = a to typeof(long) on (extend p = prev(e), n = row_number(), c = row_cumsum(e))',
    );
    // Assess
    expect(columns).toEqual(['a', 'e', 'p', 'n', 'c']);
    expect(rows).toEqual(
      expect.arrayContaining([
        [[1, 2], 1, null, 1, 1],
        [[1, 2], 2, 1, 2, 3],
        [[5, 3, 4], 5, null, 1, 5],
        [[5, 3, 4], 3, 5, 2, 8],
        [[5, 3, 4], 4, 3, 3, 12],
      ]),
    );
    expect(rows).toHaveLength(5);
  });

  it("runs window functions in the order of a sort inside the sub-query, each row's elements apart", async () => {
    // Act
    const { rows } = await run(
      'datatable (a:dynamic) [dynamic([2, 1]), dynamic([9, 7])]\n' +
        '| mv-apply e = a to typeof(long) on (sort by e asc | extend p = prev(e)) | project e, p',
    );
    // Assess
    expect(rows).toEqual(
      expect.arrayContaining([
        [1, null],
        [2, 1],
        [7, null],
        [9, 7],
      ]),
    );
    expect(rows).toHaveLength(4);
  });

  it.each([
    [
      'after mv-expand (its rows expanded from one element would tie in any order)',
      'print a = dynamic([1, 2]) | mv-apply x = a to typeof(long) on (extend b = range(x * 10, x * 10 + 3, 1)\n' +
        '| mv-expand b to typeof(long) | extend p = prev(b))',
      "2:44: prev() needs serialized input (the row set must be serialized): add '| serialize' or '| order by ...' before this operator",
    ],
    [
      'after summarize',
      'print a = dynamic([1, 2, 3]) | mv-apply x = a to typeof(long) on (summarize c = count() by b = x % 2\n' +
        '| extend rn = row_number())',
      "2:15: row_number() needs serialized input (the row set must be serialized): add '| serialize' or '| order by ...' before this operator",
    ],
    [
      'after mv-expand then take (take keeps its input unserialized)',
      'print a = dynamic([1, 2]) | mv-apply x = a to typeof(long) on (extend b = pack_array(x, x)\n' +
        '| mv-expand b to typeof(long) | take 3 | extend rn = row_number())',
      "2:54: row_number() needs serialized input (the row set must be serialized): add '| serialize' or '| order by ...' before this operator",
    ],
  ])('refuses a window function %s, as Kusto does, until a sort comes between', (_, query, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toBe(message);
  });

  it('runs a window function after summarize and a sort, per row', async () => {
    // Act
    const { rows } = await run(
      'datatable (a:dynamic) [dynamic([1, 2, 3]), dynamic([4])]\n' +
        '| mv-apply x = a to typeof(long) on (summarize c = count() by b = x % 2 | sort by b asc | extend rn = row_number())\n' +
        '| project b, c, rn',
    );
    // Assess
    expect(rows).toEqual(
      expect.arrayContaining([
        [0, 1, 1],
        [1, 2, 2],
        [0, 1, 1],
      ]),
    );
    expect(rows).toHaveLength(3);
  });

  it("serializes each row's sub-table in its array order, with or without columns, and after a summarize", async () => {
    // Act
    const bare = await run(
      'datatable (a:dynamic) [dynamic([5, 6]), dynamic([7])]\n| mv-apply y = a to typeof(long) on (serialize | extend r = row_number()) | project y, r',
    );
    const named = await run(
      'datatable (a:dynamic) [dynamic([5, 6]), dynamic([7])]\n| mv-apply y = a to typeof(long) on (serialize r = row_number(), p = prev(y)) | project y, r, p',
    );
    const summarized = await run(
      'datatable (a:dynamic) [dynamic([1, 2, 3]), dynamic([4])]\n' +
        '| mv-apply x = a to typeof(long) on (summarize by b = x % 2 | serialize r = row_number()) | summarize n = max(r) by a = tostring(a)',
    );
    // Assess
    expect(bare.rows).toEqual(
      expect.arrayContaining([
        [5, 1],
        [6, 2],
        [7, 1],
      ]),
    );
    expect(bare.rows).toHaveLength(3);
    expect(named.columns).toEqual(['y', 'r', 'p']);
    expect(named.rows).toEqual(
      expect.arrayContaining([
        [6, 2, 5],
        [5, 1, null],
        [7, 1, null],
      ]),
    );
    expect(summarized.rows).toEqual(
      expect.arrayContaining([
        ['[1,2,3]', 2],
        ['[4]', 1],
      ]),
    );
  });

  it('casts elements with to typeof() without parsing text: a non-conforming element is null (mv-expand page)', async () => {
    // Prepare
    const source = 'print a = dynamic([1, "2", 2.5, true, "x"])';
    // Act
    const long = await run(`${source} | mv-expand a to typeof(long)`);
    const real = await run(
      `${source} | mv-apply e = a to typeof(real) on (summarize n = countif(isnotnull(e)), s = sum(e))`,
    );
    const bool = await run(`${source} | mv-expand a to typeof(bool)`);
    const span = await run('print a = pack_array(1h, 2, 2.5, true, "00:30:00") | mv-expand a to typeof(timespan)');
    // Assess
    expect(long.rows).toEqual([[1], [null], [null], [null], [null]]);
    expect(real.rows).toEqual([[[1, '2', 2.5, true, 'x'], 2, 3.5]]);
    expect(bool.rows).toEqual([[null], [null], [null], [true], [null]]);
    // A number was read as days (2 gave 2.00:00:00).
    expect(span.rows).toEqual([['01:00:00'], [null], [null], [null], ['00:30:00']]);
  });

  it('casts a real NaN or infinity held in a dynamic to the real, so aggregations keep it (litcol L4, aggdiff A5)', async () => {
    // Prepare: pack_array() holds them as the strings "NaN", "Infinity", "-Infinity".
    const source = 'print d = pack_array(real(nan), real(+inf), real(-inf), 0.5)';
    // Act
    const expanded = await run(`${source} | mv-expand e = d to typeof(real) | project e, n = isnull(e)`);
    const summed = await run(
      `print d = pack_array(real(nan), real(+inf), 0.5) | mv-apply x = d to typeof(real) on (summarize s = sum(x), m = max(x), c = dcount(x)) | project s, m, c`,
    );
    // Assess: they were null (the cast took only JSON numbers), and the sums lost them.
    expect(expanded.rows).toEqual([
      ['NaN', false],
      ['Infinity', false],
      ['-Infinity', false],
      [0.5, false],
    ]);
    expect(summed.rows).toEqual([['NaN', 'Infinity', 3]]);
  });

  it('types a real NaN or infinity held in a dynamic real, as the functions reading it take it (kql-fix9)', async () => {
    // Prepare
    const source = 'print d = pack_array(real(nan), real(+inf), real(-inf), 0.5, "x")';
    // Act
    const expanded = await run(
      `${source} | mv-expand e = d | project t = gettype(e), n = isnan(todouble(e)), p = e + 1.0, r = todouble(e) > 0`,
    );
    const sorted = await run(`${source} | project array_sort_asc(d), array_sort_desc(d)`);
    // Assess: gettype said string, and -Infinity sorted after the numbers.
    expect(expanded.rows).toEqual([
      ['real', true, 'NaN', false],
      ['real', false, 'Infinity', true],
      ['real', false, '-Infinity', false],
      ['real', false, 1.5, true],
      ['string', null, null, null],
    ]);
    expect(sorted.rows).toEqual([
      [
        ['-Infinity', 0.5, 'Infinity', 'NaN', 'x'],
        ['x', 'NaN', 'Infinity', 0.5, '-Infinity'],
      ],
    ]);
  });

  it("leaves with_itemindex's column to the sub-query: project and project-keep without it drop it", async () => {
    // Prepare
    const source = 'datatable(a:long, d:dynamic)[1, dynamic([30, 10])] | mv-apply with_itemindex=i x = d on';
    // Act
    const kept = await run(`${source} (project-keep x)`);
    const projected = await run(`${source} (project x | take 1)`);
    const listed = await run(`${source} (project i, x | extend p = prev(x))`);
    // Assess: i came back in the first two; the array order still holds without it.
    expect(kept).toEqual({
      columns: ['a', 'd', 'x'],
      rows: [
        [1, [30, 10], 30],
        [1, [30, 10], 10],
      ],
    });
    expect(projected).toEqual({ columns: ['a', 'd', 'x'], rows: [[1, [30, 10], 30]] });
    expect(listed.rows).toEqual([
      [1, [30, 10], 0, 30, null],
      [1, [30, 10], 1, 10, 30],
    ]);
  });

  it('puts the input columns that are not expanded first, then the sub-query columns in its order (Kusto.Language)', async () => {
    // Act: the expanded d kept its place between a and b.
    const taken = await run(
      'datatable(a:long, d:dynamic, b:string)[1, dynamic([1,2]), "x"] | mv-apply d to typeof(long) on (take 1)',
    );
    const projected = await run(
      'datatable(a:long, d:dynamic, b:string)[1, dynamic([1,2]), "x"] | mv-apply d on (project z = 1, d)',
    );
    // Assess
    expect(taken).toEqual({ columns: ['a', 'b', 'd'], rows: [[1, 'x', 1]] });
    expect(projected.columns).toEqual(['a', 'b', 'z', 'd']);
  });
});
