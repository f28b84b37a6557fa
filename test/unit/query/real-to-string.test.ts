// tostring() of a real on DuckDB writes .NET's double.ToString() text (lib/query/sql/duckdb.ts,
// realToString). Between 1E-04 and 1E+15 it takes a fast path (DuckDB's own text, an integral value
// without ".0"); there .NET, like JavaScript's Number#toString, writes the shortest round-trip
// digits in fixed notation, so JavaScript is the reference for thousands of values of that range.
// Outside it the conformance case fn-probe6-tostring-real-dotnet-text pins the E notation.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
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
