// tostring() of a real on DuckDB writes .NET's double.ToString() text (lib/query/sql/duckdb.ts,
// realToString). Between 1E-04 and 1E+15 it takes a fast path (DuckDB's own text, an integral value
// without ".0"); there .NET, like JavaScript's Number#toString, writes the shortest round-trip
// digits in fixed notation, so JavaScript is the reference for thousands of values of that range.
// Outside it the conformance case fn-probe6-tostring-real-dotnet-text pins the E notation.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

describe('tostring() of a real', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('writes the shortest round-trip digits in fixed notation between 1E-04 and 1E+15, as .NET and JavaScript do', async () => {
    // Arrange: values spread over the range's 19 decades, integral and not, both signs
    const query =
      'range i from 1 to 6000 step 1 | extend r = (i % 2 * 2 - 1) * pow(10.0, i % 19 - 4) * (1 + i / 7.0) | where abs(r) < 1e15 | extend r2 = round(r), s = tostring(r) | extend s2 = tostring(r2) | project r, s, r2, s2';
    const sql = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb', rowLimit: 100_000 }).sql;
    // Act
    const rows = await runSql(db, sql);
    // Assess
    expect(rows.length).toBeGreaterThan(5000);
    const wrong = rows.filter(([r, s, r2, s2]) => {
      const ok = (v: unknown, text: unknown): boolean => Math.abs(Number(v)) < 1e-4 || text === String(Number(v));
      return !ok(r, s) || !ok(r2, s2);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});

describe('tostring() of a decimal (a double in the engines)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  /** Rows of a query, converted as the answer writes them. */
  const rowsOf = async (query: string): Promise<unknown[][]> => {
    const c = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb', rowLimit: 100_000 });
    return convertRows(
      await runSql(db, c.sql),
      c.columns.map((x) => x.type),
    );
  };

  it('writes the 15-significant-digit value the double is a few units in the last place from', async () => {
    // Act: they were the doubles' texts, 0.30000000000000004 and 3.3000000000000003.
    const rows = await rowsOf(
      'print tostring(decimal(0.1) + decimal(0.2)), tostring(decimal(1.1) * 3), tostring(decimal(0)), tostring(decimal(1234567890123456)), tostring(decimal(1) / decimal(3)), tostring(parse_version("1.2.3.4"))',
    );
    // Assess
    expect(rows).toEqual([['0.3', '3.3', '0', '1234567890123456', '0.3333333333333333', '1.0000000200000003E+24']]);
  });

  it('agrees with the answer value of the same decimal', async () => {
    // Arrange: sums and products of short decimals, and long fractions, over several decades
    const query =
      'range i from 1 to 3000 step 1 | extend m = todecimal(i % 97) * decimal(0.1) + todecimal(i) * decimal(0.01) - todecimal(i % 13) / decimal(7) * pow(10.0, i % 9 - 4) | project m, s = tostring(m)';
    // Act
    const rows = await rowsOf(query);
    // Assess: the fast path's range (DuckDB's own text) agrees with JavaScript's text of the answer
    const inRange = rows.filter(([m]) => Math.abs(Number(m)) >= 1e-4 && Math.abs(Number(m)) < 1e15);
    expect(inRange.length).toBeGreaterThan(2500);
    expect(inRange.filter(([m, s]) => String(m) !== s).slice(0, 5)).toEqual([]);
  });
});
