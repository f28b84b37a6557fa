// Long arithmetic wraps around 64 bits as Kusto's does (and as constant folding here does), where
// DuckDB's BIGINT raised an overflow error (400 QUERY_DATA_ERROR): +, -, * and unary minus of longs
// a column or an aggregate computes. Run on DuckDB against the wrapped value each row must give.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { rowsOf as rowsOnFixture } from './duckdb-rows';

const duckdb: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };
const timestream: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'timestream' };
const EDGES = 'datatable(a:long)[9223372036854775807, long(-9223372036854775808), 5, long(null)]';

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

const rowsOf = (query: string): Promise<unknown[][]> => rowsOnFixture(db, query, duckdb);

/** x as a signed 64-bit long, as the answer writes it (a number when it is a safe integer). */
function wrapped(x: bigint): unknown {
  const v = BigInt.asIntN(64, x);
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : String(v);
}

describe('long arithmetic wrapping around 64 bits', () => {
  it('wraps +, -, * and unary minus of a long column', async () => {
    // Act
    const got = await rowsOf(`${EDGES} | project p = a + 1, m = a - 2, t = a * 3, n = -a`);
    // Assess: each against BigInt.asIntN(64, exact); a null stays null.
    const values = [9223372036854775807n, -9223372036854775808n, 5n];
    expect(got).toEqual([
      ...values.map((a) => [wrapped(a + 1n), wrapped(a - 2n), wrapped(a * 3n), wrapped(-a)]),
      [null, null, null, null],
    ]);
  });

  it('wraps a chain of operations as the exact value modulo 2^64', async () => {
    const got = await rowsOf(`${EDGES} | project v = a * a * a * a - a * a + 7 - (-a) * a`);
    const exact = (a: bigint): bigint => a * a * a * a - a * a + 7n - -a * a;
    expect(got).toEqual([
      [wrapped(exact(2n ** 63n - 1n))],
      [wrapped(exact(-(2n ** 63n)))],
      [wrapped(exact(5n))],
      [null],
    ]);
  });

  it('wraps arithmetic over an aggregate (no TRY around it)', async () => {
    const got = await rowsOf(`${EDGES} | summarize s = max(a) * 9223372036854775807 + min(a)`);
    expect(got).toEqual([[wrapped((2n ** 63n - 1n) ** 2n - 2n ** 63n)]]);
  });

  it('answers the hash sum of the parse_version example that overflowed', async () => {
    const got = await rowsOf(
      'datatable(v:string)["1.2.3.4", "99999999.0.0.0"] | summarize c = count() by k = hash(v) + hash(v) | count',
    );
    expect(got).toEqual([[2]]);
  });

  it('keeps ints and small constants in BIGINT: their arithmetic cannot overflow', () => {
    const sql = compile('datatable(i:int, a:long)[1, 2] | project x = i * i + 1, y = -i - 7, z = a + 1', duckdb).sql;
    // Only z (a long column plus one) is computed in HUGEINT and wrapped.
    expect(sql.match(/& 18446744073709551615/g)).toHaveLength(1);
    expect(sql).not.toContain('9223372036854775808');
  });

  it('writes each operand other than a column once, so nested arithmetic grows linearly', () => {
    const sum = (n: number): string => Array.from({ length: n }, () => 'a').join(' + ');
    const size = (n: number): number => compile(`${EDGES} | project s = ${sum(n)}`, duckdb).sql.length;
    expect(size(40) - size(20)).toBeLessThan(3 * (size(20) - size(10)));
    expect(compile(`${EDGES} | project s = strlen(tostring(a)) * 3 + 1`, duckdb).sql.match(/length\(/g)).toHaveLength(
      1,
    );
  });

  it('runs a chain of long columns in BIGINT when they lie within a safe range, and wraps the other rows', async () => {
    // Assemble: rows inside the tested range (3, 4), outside it (2^40) and at the long's end.
    const pairs: [bigint, bigint][] = [
      [3n, 4n],
      [2n ** 40n, 2n ** 40n + 3n],
      [2n ** 63n - 1n, 2n],
      [-(2n ** 63n), -1n],
    ];
    const rows = pairs.map(([a, b]) => `long(${a}), long(${b})`).join(', ');
    const query = `datatable(a:long, b:long)[${rows}, long(null), 1] | project v = a * b + a - 7`;
    // Act
    const sql = compile(query, duckdb).sql;
    const got = await rowsOf(query);
    // Assess: one range test of both columns in front of the plain chain; values wrapped as Kusto's.
    expect(sql).toMatch(/CASE WHEN "_c1" BETWEEN -\d+ AND \d+ AND "_c2" BETWEEN -\d+ AND \d+ THEN/);
    expect(got).toEqual([...pairs.map(([a, b]) => [wrapped(a * b + a - 7n)]), [null]]);
  });

  it('keeps the row walks (scan) to the wrapped form, whose steps repeat each expression many times', () => {
    const scan = 'sort by a asc | scan declare (s:long = 0) with (step x: true => s = x.s + a * 2;)';
    const sql = compile(`${EDGES} | where isnotnull(a) | ${scan}`, duckdb).sql;
    expect(sql).toContain('& 18446744073709551615');
    expect(sql).not.toContain(' BETWEEN ');
  });

  it('keeps a chain over a volatile or computed operand wrapped only (never read twice)', () => {
    const sql = compile(`${EDGES} | project s = tolong(rand() * 10) * 3 + a`, duckdb).sql;
    expect(sql).not.toContain('CASE WHEN');
    expect(sql.match(/random\(/g)).toHaveLength(1);
  });

  it('leaves Timestream as it was (no HUGEINT there)', () => {
    expect(compile(`${EDGES} | project s = a * 3 + 1`, timestream).sql).not.toMatch(/HUGEINT|int128/i);
  });
});
