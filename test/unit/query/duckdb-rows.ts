// Running a query on the fixture database for tests that compare a plugin's rows as a multiset.
import type { DuckDBConnection } from '@duckdb/node-api';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, runSql } from '../../golden/fixture-db';

/** The rows `query` gives on DuckDB as the API writes them, each cell through `cell`, sorted by their JSON text. */
export async function sortedRows(
  db: DuckDBConnection,
  query: string,
  cell: (v: unknown) => unknown = (v) => v,
): Promise<unknown[][]> {
  const compiled = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
  const rows = convertRows(
    await runSql(db, compiled.sql),
    compiled.columns.map((c) => c.type),
  );
  return rows.map((r) => r.map(cell)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
