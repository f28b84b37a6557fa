// Physical DuckDB layout of the logical telemetry tables (lib/telemetry/tables.ts).
// Each table carries one hidden column, CustomerId, that queries never see: the query engine
// restricts every source to the caller's customer outside the user's query text.
import { TABLES, type KqlType, type TableName } from './tables';

const physicalType: Readonly<Record<KqlType, string>> = {
  string: "VARCHAR NOT NULL DEFAULT ''",
  datetime: 'TIMESTAMP',
  dynamic: 'JSON',
  long: 'BIGINT',
  int: 'INTEGER',
  real: 'DOUBLE',
  bool: 'BOOLEAN',
  timespan: 'INTERVAL',
  guid: 'UUID',
  decimal: 'DECIMAL(38, 18)',
};

/** The hidden tenant column present in every physical telemetry table. */
export const CUSTOMER_COLUMN = 'CustomerId';

export function createTableSql(table: TableName): string {
  const columns = TABLES[table].map((c) => `"${c.name}" ${physicalType[c.type]}`);
  return `CREATE TABLE IF NOT EXISTS "${table}" ("${CUSTOMER_COLUMN}" VARCHAR NOT NULL, ${columns.join(', ')})`;
}

export const TELEMETRY_DDL: readonly string[] = [createTableSql('States'), createTableSql('Events')];
