// scan at the compile() level: the Timestream refusal and its position, the parser's errors with
// their positions, a cross-check of the one-step scan against row_cumsum on random input, and of a
// three-step funnel against the docs' matching logic written out here. The
// documented examples are in the conformance corpus (test/conformance/cases/op-scan-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { expectInterruptedThenNextRuns } from './engine-interrupt';
import { substituteIdents } from '../../../lib/query/sql/substitute-idents';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

const failure = (query: string, dialect: CompileOptions['dialect'] = 'duckdb') =>
  compileFailure(query, options(dialect));

describe('scan', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('is refused on Timestream at the operator, naming the operator and the engine', () => {
    // Act
    const error = failure('range x from 1 to 3 step 1\n| scan with (step s: true)', 'timestream');
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toBe('2:3: scan is not supported on the timestream engine');
  });

  it.each([
    [
      'range x from 1 to 3 step 1 | scan with (step s1 output=first: true)',
      'QUERY_SYNTAX',
      "1:56: a step's output is all, last or none, not 'first'",
    ],
    ['range x from 1 to 3 step 1 | scan with (s1: true)', 'QUERY_SYNTAX', "1:41: expected 'step', found 's1'"],
    ['range x from 1 to 3 step 1 | scan (step s1: true)', 'QUERY_SYNTAX', "1:35: expected 'with', found '('"],
    ['range x from 1 to 3 step 1 | scan with (step s1: true => x)', 'QUERY_SYNTAX', "1:59: expected '=', found ')'"],
    [
      'range x from 1 to 3 step 1 | scan declare (x:long) with (step s1: true)',
      'QUERY_SEMANTIC',
      "1:44: a column named 'x' already exists",
    ],
    [
      'range x from 1 to 3 step 1 | scan declare (c:long) with (step s1: s1.y > 1)',
      'QUERY_SEMANTIC',
      "1:67: unknown column 'y' in the state of step 's1'",
    ],
    [
      'range x from 1 to 3 step 1 | scan declare (c:long) with (step s1: x => c = "a")',
      'QUERY_SEMANTIC',
      "1:67: a scan step's condition must be a bool expression, got long",
    ],
  ])('rejects %j', (query, code, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('agrees with row_cumsum restarting where a condition holds, on random input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 1, maxLength: 30 }), async (xs) => {
        // Prepare: a running sum that restarts at each negative value, written both ways.
        const source = `datatable (i:long, v:long) [${xs.map((x, i) => `${i}, ${x}`).join(', ')}] | sort by i asc`;
        const scanned = `${source} | scan declare (s:long=0) with (step a: true => s = iff(v < 0, v, a.s + v)) | project s`;
        const summed = `${source} | extend s = row_cumsum(v, v < 0) | project s`;
        const run = async (q: string): Promise<unknown[][]> => {
          const compiled = compile(q, options('duckdb'));
          return convertRows(await runSql(db, compiled.sql), ['long']);
        };
        // Act
        const [a, b] = [await run(scanned), await run(summed)];
        // Assess
        expect(a).toEqual(b);
      }),
      { seed: 15, numRuns: 25 },
    );
  });
  it('agrees with row_cumsum over 5,000 rows: the state carried across chunks and blocks of the walk', async () => {
    // Prepare: 79 chunks of 64 rows in 3 blocks (sql/scan.ts), values from -20 to 20.
    const source = 'range i from 1 to 5000 step 1 | extend v = (i * 7919) % 41 - 20';
    const scanned = `${source} | scan declare (s:long=0) with (step a: true => s = iff(v < 0, v, a.s + v)) | project i, s`;
    const summed = `${source} | extend s = row_cumsum(v, v < 0) | project i, s`;
    const run = async (q: string): Promise<unknown[][]> => {
      const compiled = compile(q, { ...options('duckdb'), rowLimit: 10_000 });
      return convertRows(await runSql(db, compiled.sql), ['long', 'long']);
    };
    // Act
    const [a, b] = [await run(scanned), await run(summed)];
    // Assess
    expect(a).toHaveLength(5000);
    expect(a).toEqual(b);
  }, 60_000);
  it('inside partition scans each key from an empty state: agrees with row_cumsum restarting at each key', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', ''), fc.integer({ min: -9, max: 9 })), {
          minLength: 1,
          maxLength: 30,
        }),
        async (rows) => {
          // Prepare: per key a running sum, once by scan per partition, once by row_cumsum restarting where the key changes.
          const source = `datatable (i:long, k:string, v:long) [${rows.map(([k, v], i) => `${i}, '${k}', ${v}`).join(', ')}]`;
          const scanned = `${source} | partition hint.strategy=native by k (sort by i asc | scan declare (s:long=0) with (step a: true => s = a.s + v)) | project k, i, s | sort by k asc, i asc`;
          const summed = `${source} | sort by k asc, i asc | extend s = row_cumsum(v, k != prev(k)) | project k, i, s`;
          const run = async (q: string): Promise<unknown[][]> => {
            const compiled = compile(q, options('duckdb'));
            return convertRows(await runSql(db, compiled.sql), ['string', 'long', 'long']);
          };
          // Act
          const [a, b] = [await run(scanned), await run(summed)];
          // Assess
          expect(a).toEqual(b);
        },
      ),
      { seed: 7, numRuns: 20 },
    );
  });

  it('inside partition numbers the matches and keeps output=last per key (match ids from 0 in each key)', async () => {
    // Prepare
    const query =
      'datatable(k:string, x:long)["a",1,"b",10,"a",2,"b",20,"a",3]\n' +
      '| partition hint.strategy=native by k (scan with_match_id=m declare (c:long=0) with (step s1 output=last: true => c = x + s1.c;))\n' +
      '| sort by k asc';
    // Act
    const compiled = compile(query, options('duckdb'));
    const rows = convertRows(await runSql(db, compiled.sql), ['string', 'long', 'long', 'long']);
    // Assess: no sort inside, so each key's rows keep their input order.
    expect(compiled.columns.map((c) => c.name)).toEqual(['k', 'x', 'c', 'm']);
    expect(rows).toEqual([
      ['a', 3, 6, 0],
      ['b', 20, 30, 0],
    ]);
  });

  it("inside partition with no sort keeps each key's input order (the engine's sort is not stable)", async () => {
    // Prepare: rows in x order; a step counts the rows whose x is below the previous row's of the key.
    const query =
      'range x from 1 to 20000 step 1 | extend k = x % 3 | sort by x asc\n' +
      '| partition hint.strategy=native by k (scan declare (p:long=0, bad:long=0) with (step s1: true => p = x, bad = iff(s1.p > x, s1.bad + 1, s1.bad);))\n' +
      '| summarize max(bad), count(), dcount(x)';
    // Act
    const compiled = compile(query, options('duckdb'));
    const rows = convertRows(await runSql(db, compiled.sql), ['long', 'long', 'long']);
    // Assess: no row out of order, and the hidden row number does not leave the partition.
    expect(compiled.columns.map((c) => c.name)).toEqual(['max_bad', 'count_', 'dcount_x']);
    expect(rows).toEqual([[0, 20000, 20000]]);
  }, 60_000);

  it('feeds summarize its rows in their order: make_list after a scan of two steps tracks the input (make_list page)', async () => {
    // Prepare: odd rows match s1, even rows s2; each step's rows come from a query of their own.
    const query =
      'range x from 1 to 200 step 1 | sort by x asc\n' +
      '| scan with (step s1: x % 2 == 1; step s2: x == s1.x + 1;)\n' +
      '| summarize l = make_list(x), n = count()';
    // Act
    const compiled = compile(query, options('duckdb'));
    const rows = convertRows(await runSql(db, compiled.sql), ['dynamic', 'long']);
    // Assess: the summarize input is sorted (scan keeps the order), so the list is 1..200.
    expect(rows).toEqual([[Array.from({ length: 200 }, (_, i) => i + 1), 200]]);
  });

  it('ends an output=last series where a promotion into its step starts another (Check 1 clears the step)', async () => {
    // Prepare: s2 matches t2 (promoted from s1: match 0), then t4 is promoted again from the new s1
    // match of t3 (match 1) and t5 repeats it. The series at s2 are [t2] and [t4, t5].
    const query =
      'datatable(t:long, e:string)[1,"a",2,"b",3,"a",4,"c",5,"b"] | sort by t asc\n' +
      '| scan with_match_id=id with (step s1: e == "a"; step s2 output=last: e != "a";)\n' +
      '| project t, id';
    // Act
    const compiled = compile(query, options('duckdb'));
    const rows = convertRows(await runSql(db, compiled.sql), ['long', 'long']);
    // Assess: t2 is the last of its series (it was dropped as if t4 repeated it), t4 is not.
    expect(rows).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [5, 1],
    ]);
  });

  it("reads a step's own declared column as its default in the Check 1 that clears it, as an empty first step does", async () => {
    // Prepare: x=2 is promoted into s2 (Check 1): s2.n is the default 5, then s2 counts on.
    const query =
      'range x from 1 to 4 step 1\n' +
      '| scan declare (n:long = 5) with (step s1: x == 1 => n = 1; step s2: x > 1 => n = s2.n + s1.n;)';
    // Act
    const compiled = compile(query, options('duckdb'));
    const rows = convertRows(await runSql(db, compiled.sql), ['long', 'long']);
    // Assess: 5 + 1, then 6 + 1 ... (it was null: the cleared record read null, not its default).
    expect(rows).toEqual([
      [1, 1],
      [2, 6],
      [3, 7],
      [4, 8],
    ]);
  });

  it('sorts the serialized rows before a summarize only when a list reads their order', async () => {
    // Prepare: rows numbered by serialize; count and avg read no order, the lists do.
    const numbered = 'range i from 1 to 14 step 1 | extend k = i % 7 | serialize rn = row_number()';
    const sorts = (sql: string): number => sql.replaceAll('OVER (ORDER BY', '').match(/ORDER BY/g)?.length ?? 0;
    // Act
    const counted = compile(`${numbered} | summarize n = count(), a = avg(rn) by k | sort by k asc`, options('duckdb'));
    const lists = ['make_list(rn)', 'make_list_if(rn, rn > 7)', 'make_list_with_nulls(rn)'].map(
      (agg) => compile(`${numbered} | summarize l = ${agg}`, options('duckdb')).sql,
    );
    const rows = convertRows(await runSql(db, counted.sql), ['long', 'long', 'real']);
    // Assess: the only sort (beside the numbering's window) of the count is the final one; each list's input is sorted.
    expect(sorts(counted.sql)).toBe(1);
    for (const sql of lists) expect(sorts(sql)).toBe(1);
    expect(rows).toEqual(Array.from({ length: 7 }, (_, k) => [k, 2, k === 0 ? 10.5 : k + 3.5]));
  });

  it("runs a three-step funnel as the docs' matching logic does, on random input", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('Start', 'B', 'Stop', 'X'), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 25,
        }),
        async (events) => {
          // Prepare: rows (t, e) with t increasing; the expectation from the docs' Check 1 / Check 2,
          // steps evaluated from the last to the first, a row possibly matching several steps.
          const rows = events.reduce<[number, string][]>(
            (acc, [e, gap]) => [...acc, [(acc.at(-1)?.[0] ?? 0) + gap, e]],
            [],
          );
          const conds = [
            (e: string) => e === 'Start',
            (e: string, t: number, s1: number) => e === 'B' && t - s1 <= 4,
            (e: string, t: number, s1: number) => e === 'Stop' && t - s1 <= 4,
          ];
          type State = { s1: number; id: number } | undefined;
          const state: State[] = [undefined, undefined, undefined];
          let nextId = 0;
          const expected: string[] = [];
          for (const [t, e] of rows) {
            for (let k = 2; k >= 0; k--) {
              const prev = k > 0 ? state[k - 1] : undefined;
              if (prev && conds[k]!(e, t, prev.s1)) {
                state[k] = prev;
                state[k - 1] = undefined;
                expected.push(JSON.stringify([t, e, prev.id]));
              } else if ((k === 0 || state[k]) && conds[k]!(e, t, k === 0 ? t : state[k]!.s1)) {
                if (k === 0) state[0] = { s1: t, id: state[0] ? state[0].id : nextId++ };
                expected.push(JSON.stringify([t, e, state[k]!.id]));
              }
            }
          }
          const source = `datatable (t:long, e:string) [${rows.map(([t, e]) => `${t}, "${e}"`).join(', ')}] | sort by t asc`;
          const query =
            `${source} | scan with_match_id=m with (step s1: e == "Start"; ` +
            `step s2: e == "B" and t - s1.t <= 4; step s3: e == "Stop" and t - s1.t <= 4;)`;
          const compiled = compile(query, options('duckdb'));
          // Act
          const out = convertRows(await runSql(db, compiled.sql), ['long', 'string', 'long']);
          // Assess
          expect(out.map((r) => JSON.stringify(r)).sort()).toEqual(expected.sort());
        },
      ),
      { seed: 7, numRuns: 20 },
    );
  });

  it('rewrites identifiers outside string literals only', () => {
    // Act
    const sql = substituteIdents(`"_c1" + length('"_c1" it''s') + "_c2"`, new Map([['_c1', 'r."_c1"']]));
    // Assess
    expect(sql).toBe(`r."_c1" + length('"_c1" it''s') + "_c2"`);
  });
  it('is interrupted at the time limit in the middle of its recursion, and the next query runs', async () => {
    // Prepare: a scan over 2,000,000 rows (a minute or more; the walk takes a block of rows per
    // recursion step, and the engine checks the interrupt between steps) on the service's engine.
    const { sql } = compile(
      'range x from 1 to 2000000 step 1 | scan declare (s:long=0) with (step a: true => s = a.s + x) | summarize n = max(s)',
      options('duckdb'),
    );
    await expectInterruptedThenNextRuns(sql, 300, 15_000);
  }, 60_000);

  it('assigns an input column: a step that does not assign it keeps the row value, the state reads the assigned one', async () => {
    // Act: fill forward nulls of x itself (the functions library's time_weighted_avg2_fl).
    const compiled = compile(
      'datatable (i:long, x:long) [1, 5, 2, long(null), 3, long(null), 4, 7, 5, long(null)]\n' +
        '| sort by i asc\n' +
        '| scan with (step s: true => x = iff(isnull(x), s.x, x);)',
      { ...GOLDEN_OPTIONS, dialect: 'duckdb' },
    );
    const rows = convertRows(await runSql(db, compiled.sql), ['long', 'long']);
    // Assess
    expect(compiled.columns.map((c) => `${c.name}:${c.type}`)).toEqual(['i:long', 'x:long']);
    expect(rows).toEqual([
      [1, 5],
      [2, 5],
      [3, 5],
      [4, 7],
      [5, 7],
    ]);
  });

  describe('a step calling a function whose SQL holds a lambda or a subquery (litcol L13)', () => {
    const T =
      'datatable(i:long, a:string, d:dynamic, t:datetime)[0, "fe80::1", dynamic({"b":1,"a":[2]}), datetime(2020-06-01), 1, "::1", dynamic([1,2]), datetime(2021-01-01)]';
    const values = async (query: string): Promise<unknown[][]> => {
      const compiled = compile(query, options('duckdb'));
      return convertRows(
        await runSql(db, compiled.sql),
        compiled.columns.map((c) => c.type),
      );
    };

    it.each([
      ['string', 'parse_ipv6(a)'],
      ['bool', 'ipv6_is_in_range(a, "fe80::/10")'],
      ['string', 'dynamic_to_json(d)'],
      ['dynamic', 'treepath(d)'],
      ['datetime', 'datetime_utc_to_local(t, "Asia/Tokyo")'],
      ['long', 'i + toscalar(print 5)'],
    ])('assigns %s %s as extend computes it, where the engine failed', async (type, call) => {
      // Act: parse_ipv6's lambda parameter s read the walk's column s; the others' subqueries sat in its lambda.
      const scanned = await values(`${T} | scan declare (r:${type}) with (step s: true => r = ${call};) | project r`);
      const extended = await values(`${T} | extend r = ${call} | project r`);
      // Assess
      expect(scanned).toEqual(extended);
      expect(scanned.some(([r]) => r !== null)).toBe(true);
    });

    it("refuses such a function over the step's state at its position, with the reason", () => {
      // Act
      const error = failure(
        `${T} | scan declare (r:dynamic, j:string) with (step s: true => r = d, j = dynamic_to_json(s.r);) | project j`,
      );
      // Assess
      expect(error.code).toBe('QUERY_UNSUPPORTED');
      expect(error.message).toMatch(/^1:\d+: this step's expression reads the scan's state through a function/);
      expect(error.span.start).toBe(
        T.length + ' | scan declare (r:dynamic, j:string) with (step s: true => r = d, j = '.length,
      );
    });
  });
});
