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

/** The query's columns (name:type) and the rows it gives on DuckDB, in the engine's order. */
export async function columnsAndRows(
  db: DuckDBConnection,
  query: string,
): Promise<{ columns: string[]; rows: unknown[][] }> {
  const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };
  const columns = compile(query, options).columns.map((c) => `${c.name}:${c.type}`);
  return { columns, rows: (await rowsOf(db, query, options)).map((r) => [...r]) };
}
