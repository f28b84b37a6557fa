// Running a query on the fixture database: its rows as the API writes them, in order or as a multiset.
import type { DuckDBConnection } from '@duckdb/node-api';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, runSql } from '../../golden/fixture-db';

/** The rows `query` gives on DuckDB as the API writes them, each cell through `cell`, sorted by their JSON text. */
export async function sortedRows(
  db: DuckDBConnection,
  query: string,
  cell: (v: unknown) => unknown = (v) => v,
): Promise<unknown[][]> {
  const rows = await rowsOf(db, query);
  return rows.map((r) => r.map(cell)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** The rows `query` gives on DuckDB as the API writes them, in the engine's order. */
export async function rowsOf(
  db: DuckDBConnection,
  query: string,
  options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' },
): Promise<unknown[][]> {
  const compiled = compile(query, options);
  return convertRows(
    await runSql(db, compiled.sql),
    compiled.columns.map((c) => c.type),
  );
}
