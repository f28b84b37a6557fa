// A string index on a dynamic value is a property lookup (lib/query/sql/duckdb.ts and timestream.ts
// dynGet/dynKey): an array has no properties, so `dynamic([1,2])["0"]` is null in Kusto. DuckDB's
// JSON pointer and Trino's JSON path both read "0" as an array index and gave 1.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

describe('a numeric property name on a dynamic value', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const value = async (query: string): Promise<unknown> => {
    const c = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
    const rows = convertRows(
      await runSql(db, c.sql),
      c.columns.map((x) => x.type),
    );
    return rows[0]?.[0];
  };

  it.each([
    ['print dynamic([1,2])["0"]', null],
    ['print dynamic({"a":[[3,4],2]}).a["0"]', null],
    ['print k = "1" | project dynamic([1,2])[k]', null],
    ['print dynamic({"0":5})["0"]', 5],
    ['print dynamic({"x":{"0":[5,6]}}).x["0"][-1]', 6],
    ['print dynamic({"a":[{"1":7},2]})["a"][0]["1"]', 7],
    ['print k = "1" | project dynamic({"1":9})[k]', 9],
    ['print dynamic([1,2])[0]', 1],
  ])('%s is %s', async (query, expected) => {
    // Act
    const got = await value(query);
    // Assess
    expect(got).toEqual(expected);
  });

  it('reads a numeric name on Timestream as a map key, not through the JSON path', () => {
    // Act
    const sql = compile('print dynamic([1,2])["0"]', { ...GOLDEN_OPTIONS, dialect: 'timestream' }).sql;
    // Assess
    expect(sql).toContain("AS MAP(VARCHAR, JSON))), '0')");
    expect(sql).not.toContain('$["0"]');
  });
});
