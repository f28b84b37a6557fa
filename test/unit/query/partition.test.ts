// partition at the compile() level: both engines compile it (it is written with GROUP BY and window
// functions), the parser's and analyzer's errors at their positions, and a per-partition
// top checked against an expectation computed in the test on random input. The documented examples are in
// the conformance corpus (test/conformance/cases/op-partition-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { rowsOf } from './duckdb-rows';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

describe('partition', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('compiles for Timestream with window functions and GROUP BY', () => {
    // Act
    const compiled = compile(
      'States | partition hint.strategy=native by DeviceId (top 3 by Timestamp | summarize count() by Name)',
      options('timestream'),
    );
    // Assess
    expect(compiled.sql).toContain('row_number() OVER');
    expect(compiled.sql).toContain('GROUP BY');
    expect(compiled.columns.map((c) => c.name)).toEqual(['Name', 'count_']);
  });

  it("gives every key its summarize's row, the aggregates' defaults where the sub-query emptied the key's rows, null key included", async () => {
    // Act
    const compiled = compile(
      'datatable (k:long, a:long) [long(null), 1, 2, 3, 4, 5, 6, 1]\n' +
        '| partition by k (where a > 2 | summarize c = count(), l = make_list(a), m = max(a) | extend k2 = c * 10)',
      options('duckdb'),
    );
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    // Assess
    expect(compiled.columns.map((c) => c.name)).toEqual(['c', 'l', 'm', 'k2']);
    expect(rows).toEqual(
      expect.arrayContaining([
        [0, [], null, 0],
        [1, [3], 3, 10],
        [1, [5], 5, 10],
        [0, [], null, 0],
      ]),
    );
    expect(rows).toHaveLength(4);
  });

  it("gives every key of the legacy form its count, 0 where the key's sub-query keeps no rows", async () => {
    // Act
    const compiled = compile(
      'range x from 1 to 4 step 1 | partition hint.strategy=legacy by x { range y from 1 to 2 step 1 | where y > toscalar(x) | count }',
      options('duckdb'),
    );
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    // Assess
    expect(rows.map((r) => r[0]).sort()).toEqual([0, 0, 0, 1]);
  });

  it('compiles the legacy form with its own source for Timestream: a join of the source with the distinct keys', () => {
    // Act
    const compiled = compile(
      'range x from 1 to 3 step 1 | partition hint.strategy=legacy by x { Events | where Severity > toscalar(x) | count }',
      options('timestream'),
    );
    // Assess
    expect(compiled.sql).toContain('INNER JOIN');
    expect(compiled.columns.map((c) => c.name)).toEqual(['Count']);
  });

  it('compiles toscalar over an as-named partition for Timestream: a per-key value joined by the key', () => {
    // Act
    const compiled = compile(
      'States | partition by DeviceId (as P | extend share = todouble(Value) / toscalar(P | summarize sum(todouble(Value))))',
      options('timestream'),
    );
    // Assess
    expect(compiled.sql).toContain('LEFT JOIN');
    expect(compiled.columns.at(-1)).toEqual({ name: 'share', type: 'real' });
  });

  it.each([
    [
      'range x from 1 to 3 step 1 | partition by x (as P | join (P) on x)',
      'QUERY_UNSUPPORTED',
      "1:53: 'join' inside partition is not supported",
    ],
    ['range x from 1 to 3 step 1 | partition x (count)', 'QUERY_SYNTAX', "1:40: expected 'by', found 'x'"],
    ['range x from 1 to 3 step 1 | partition by x count', 'QUERY_SYNTAX', "1:45: expected '(', found 'count'"],
    [
      'range x from 1 to 3 step 1 | partition by x (top-nested 1 of x by count())',
      'QUERY_UNSUPPORTED',
      "1:46: 'top-nested' inside partition is not supported",
    ],
    [
      'print d = dynamic([1]) | partition by d (count)',
      'QUERY_SEMANTIC',
      '1:39: a partition key must be a scalar column',
    ],
    ['range x from 1 to 3 step 1 | partition by x { print y = 1', 'QUERY_SYNTAX', "1:58: expected '}'"],
    [
      'range x from 1 to 3 step 1 | partition by x { print y = 1 | top-nested 1 of y by count() }',
      'QUERY_UNSUPPORTED',
      "1:61: 'top-nested' inside partition is not supported",
    ],
    [
      'range x from 1 to 3 step 1 | partition by x (take -1)',
      'QUERY_SEMANTIC',
      '1:51: the row count cannot be negative',
    ],
    // A table read and a summarize's output are not serialized (serialize page): take keeps them so.
    [
      'States | partition by DeviceId (take 2 | extend rn = row_number())',
      'QUERY_SEMANTIC',
      '1:54: row_number() needs serialized input',
    ],
    [
      'States | summarize c = count() by DeviceId | partition by DeviceId (take 1 | extend p = prev(c))',
      'QUERY_SEMANTIC',
      '1:89: prev() needs serialized input',
    ],
  ])('rejects %j', (query, code, message) => {
    // Act
    const error = compileFailure(query, options('duckdb'));
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('gives the n largest values of each key, null keys included, on random input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.option(fc.integer({ min: 0, max: 3 })), fc.integer({ min: -50, max: 50 })), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.integer({ min: 0, max: 4 }),
        async (rows, n) => {
          // Prepare: the expectation computed here (ties do not change the multiset of (k, v) pairs).
          const source = `datatable (k:long, v:long) [${rows.map(([k, v]) => `${k === null ? 'long(null)' : k}, ${v}`).join(', ')}]`;
          const groups = new Map<number | null, number[]>();
          for (const [k, v] of rows) groups.set(k, [...(groups.get(k) ?? []), v]);
          const expected = [...groups].flatMap(([k, vs]) =>
            vs
              .sort((a, b) => b - a)
              .slice(0, n)
              .map((v) => JSON.stringify([k, v])),
          );
          const compiled = compile(`${source} | partition by k (top ${n} by v) | project k, v`, options('duckdb'));
          // Act
          const out = convertRows(await runSql(db, compiled.sql), ['long', 'long']);
          // Assess
          expect(out.map((r) => JSON.stringify(r)).sort()).toEqual(expected.sort());
        },
      ),
      { seed: 21, numRuns: 25 },
    );
  });

  const run = (query: string): Promise<unknown[][]> => rowsOf(db, query);

  it('moves columns with project-reorder inside the sub-query, as Kusto.Language orders them', async () => {
    // Act
    const query =
      'datatable(x:long, k:string)[1, "a", 2, "a", 3, "b"] | partition by k (extend y = x * 2 | project-reorder y, k) | order by x asc';
    const compiled = compile(query, options('duckdb'));
    const rows = await run(query);
    // Assess
    expect(compiled.columns.map((c) => c.name)).toEqual(['y', 'k', 'x']);
    expect(rows).toEqual([
      [2, 'a', 1],
      [4, 'a', 2],
      [6, 'b', 3],
    ]);
  });

  it('runs prev, next, row_number and row_cumsum per key (the functions library reads next() inside partition)', async () => {
    // Act: the keys' rows interleaved in the input.
    const rows = await run(
      "datatable (k:string, x:long) ['a', 1, 'b', 10, 'a', 2, 'b', 20, 'a', 3]\n" +
        '| partition hint.strategy=native by k (order by x asc | extend p = prev(x), nx = next(x), n = row_number(), c = row_cumsum(x, x == 2))\n' +
        '| order by k asc, x asc',
    );
    // Assess
    expect(rows).toEqual([
      ['a', 1, null, 2, 1, 1],
      ['a', 2, 1, 3, 2, 2],
      ['a', 3, 2, null, 3, 5],
      ['b', 10, null, 20, 1, 10],
      ['b', 20, 10, null, 2, 30],
    ]);
  });

  it("serializes each key's rows, with or without columns, also after a summarize inside", async () => {
    // Act: the keys' rows interleaved in the input (datatable's rows are not serialized).
    const input = "datatable (k:string, x:long) ['a', 1, 'b', 10, 'a', 2]\n";
    const bare = await run(`${input}| partition by k (serialize | extend n = row_number()) | summarize max(n) by k`);
    const named = await run(`${input}| partition by k (order by x asc | serialize n = row_number(), p = prev(x))`);
    const summarized = await run(
      `${input}| partition by k (summarize by x | serialize n = row_number()) | summarize make_set(n) by small = x < 10`,
    );
    // Assess
    expect(bare).toEqual(
      expect.arrayContaining([
        ['a', 2],
        ['b', 1],
      ]),
    );
    expect(bare).toHaveLength(2);
    expect(named).toEqual([
      ['a', 1, 1, null],
      ['a', 2, 2, 1],
      ['b', 10, 1, null],
    ]);
    expect(summarized).toEqual(
      expect.arrayContaining([
        [true, expect.arrayContaining([1, 2])],
        [false, [1]],
      ]),
    );
  });

  it('compiles a window function per key for Timestream: PARTITION BY the key', () => {
    // Act
    const compiled = compile(
      'States | partition hint.strategy=native by DeviceId (order by Timestamp asc | extend p = prev(Value))',
      options('timestream'),
    );
    // Assess
    expect(compiled.sql).toMatch(/lag\(.*\) OVER \(PARTITION BY /);
  });

  it('leaves its rows serialized when the sub-query ends sorted: next() may read them after it', async () => {
    // Act
    const rows = await run(
      "datatable (k:string, x:long) ['a', 1, 'a', 2, 'b', 3]\n" +
        '| partition hint.strategy=native by k (order by x asc) | extend nx = next(x) | order by x asc',
    );
    // Assess: each row's next is the next of the sub-query's order, key by key.
    expect(rows.map((r) => r[1])).toEqual([1, 2, 3]);
    expect(rows[0]![2]).toBe(2);
  });

  it("expands arrays per key (the functions library's rolling average mv-expands inside partition)", async () => {
    // Act
    const rows = await run(
      "datatable (k:string, a:dynamic) ['a', dynamic([1, 2]), 'b', dynamic([3])]\n" +
        '| partition hint.strategy=native by k (mv-expand e = a to typeof(long) | summarize s = sum(e), n = count())\n' +
        '| order by s asc, n asc',
    );
    // Assess
    expect(rows).toEqual([
      [3, 1],
      [3, 2],
    ]);
  });

  it('refuses row_window_session per key at its call: its walk knows no sub-tables', () => {
    // Act
    const error = compileFailure(
      "datatable (k:string, t:datetime) ['a', datetime(2024-01-01)]\n" +
        '| partition hint.strategy=native by k (order by t asc | extend s = row_window_session(t, 1h, 5m))',
      options('duckdb'),
    );
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toBe('2:68: row_window_session() inside partition or mv-apply is not supported');
  });

  it("takes each key's first rows in the input's order, serialized: prev() inside and after reads that order", async () => {
    // Act: range's rows are serialized; each key's rows step by 3.
    const query = (sub: string, after: string): string =>
      `range i from 1 to 60000 step 1 | extend k = i % 3 | partition by k (${sub})${after}\n` +
      '| summarize n = count(), bad = countif(isnotnull(p) and p != i - 3), nulls = countif(isnull(p))';
    const inside = await run(query('take 20000 | extend p = prev(i)', ''));
    const after = await run(query('take 20000', ' | extend p = prev(i)'));
    // Assess: inside, one null p per key; after, the keys follow one another: only the first row of
    // the second and third key reads another key's row.
    expect(inside).toEqual([[60000, 0, 3]]);
    expect(after).toEqual([[60000, 2, 1]]);
  });

  it('groups rows that kept the input order key by key, in that order within each key (the partition page)', async () => {
    // Act
    const rows = await run(
      'range i from 1 to 7 step 1 | extend k = i % 3 | partition by k (extend p = prev(i)) | extend n = next(i)',
    );
    // Assess: each key's rows together, the keys as they first come (1, 2, 0); next() reads the
    // following row, the next key's first after a key's last.
    expect(rows).toEqual([
      [1, 1, null, 4],
      [4, 1, 1, 7],
      [7, 1, 4, 2],
      [2, 2, null, 5],
      [5, 2, 2, 3],
      [3, 0, null, 6],
      [6, 0, 3, null],
    ]);
  });

  it("reads a null key's own toscalar() over the as-named partition, as every other key's (tabdiff)", async () => {
    // Act: the value was joined by the key, and a join never matches null keys, so it was null there.
    const rows = await run(
      'datatable(k:long, x:long)[1, 10, 1, 30, long(null), 5, long(null), 15]\n' +
        '| partition hint.strategy=native by k (as P | extend pct = x * 100.0 / toscalar(P | summarize sum(x)))',
    );
    // Assess
    expect(rows).toEqual(
      expect.arrayContaining([
        [1, 10, 25],
        [1, 30, 75],
        [null, 5, 25],
        [null, 15, 75],
      ]),
    );
    expect(rows).toHaveLength(4);
  });

  it('keeps the rows serialized through a toscalar() over the as-named partition', async () => {
    // Act
    const rows = await run(
      'range i from 1 to 7 step 1 | extend k = i % 3\n' +
        '| partition by k (as P | sort by i desc | extend tot = toscalar(P | summarize sum(i)) | extend rn = row_number())',
    );
    // Assess
    expect(rows).toEqual([
      [7, 1, 12, 1],
      [4, 1, 12, 2],
      [1, 1, 12, 3],
      [5, 2, 7, 1],
      [2, 2, 7, 2],
      [6, 0, 9, 1],
      [3, 0, 9, 2],
    ]);
  });

  it("gives the keys of rows the query writes in the order of their first row, each key's rows in the sub-query's order (partition page: TEXAS, KANSAS, IOWA)", async () => {
    // Prepare: keys neither sorted nor contiguous, a null key among them.
    const table = "datatable(k:string, x:long)['b', 1, 'a', 2, '', 3, 'b', 4, 'c', 5, 'a', 6]";
    const nulls = 'datatable(k:long, x:long)[2, 1, long(null), 2, 1, 3, long(null), 4, 2, 5]';
    // Act
    const top = await run(`${table} | partition by k (top 1 by x)`);
    const taken = await run(`${table} | partition by k (take 5)`);
    const counted = await run(`${nulls} | partition by k (summarize n = count(), s = sum(x))`);
    const sorted = await run(`${table} | sort by x asc | partition by k (where x > 1) | extend p = prev(x)`);
    // Assess
    expect(top).toEqual([
      ['b', 4],
      ['a', 6],
      ['', 3],
      ['c', 5],
    ]);
    expect(taken).toEqual([
      ['b', 1],
      ['b', 4],
      ['a', 2],
      ['a', 6],
      ['', 3],
      ['c', 5],
    ]);
    expect(counted).toEqual([
      [2, 6],
      [2, 6],
      [1, 3],
    ]);
    // Serialized input: its order decides which key comes first (b at x = 1, which the where drops).
    expect(sorted).toEqual([
      ['b', 4, null],
      ['a', 2, 4],
      ['a', 6, 2],
      ['', 3, 6],
      ['c', 5, 3],
    ]);
  });

  it('adds no key order over a stored table: the keys come in any order, the SQL has no join of the keys', () => {
    // Act
    const implicit = compile('States | partition by DeviceId (top 1 by Timestamp)', options('duckdb')).sql;
    const legacy = compile(
      'range x from 1 to 2 step 1 | partition by x {States | where toscalar(x) == 1 | take 1}',
      options('duckdb'),
    ).sql;
    const inline = compile("datatable(k:string)['b', 'a'] | partition by k (top 1 by k)", options('duckdb')).sql;
    // Assess: the legacy form's one join is its source's with the keys.
    expect(implicit).not.toContain('JOIN');
    expect(legacy.match(/ JOIN /g)).toHaveLength(1);
    expect(inline.match(/ JOIN /g)).toHaveLength(1);
  });

  it('still refuses a window function after a take of unordered rows: the numbering of the keys does not serialize them', () => {
    // Act
    const failure = compileFailure(
      "datatable(k:string, x:long)['b', 1, 'a', 2] | partition by k (take 1) | extend p = prev(x)",
      options('duckdb'),
    );
    // Assess
    expect(failure.code).toBe('QUERY_SEMANTIC');
    expect(failure.message).toContain('serialized');
  });
});
