// TelemetryStore on the embedded DuckDB file. Writes of one batch run in one transaction that
// first removes rows of the same messages (customer + agent + messageId), so a redelivered
// message replaces its rows instead of doubling them.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { TelemetryStore, TelemetryWrite } from '../../ingest/ports';
import { TABLES, type ColumnDef, type TableName } from '../../telemetry/tables';
import { CUSTOMER_COLUMN } from './telemetry-ddl';
import { withConnection } from './database';

/** Rows per INSERT statement: bounded so that the parameter list stays small. */
const ROWS_PER_STATEMENT = 200;

function placeholder(column: ColumnDef): string {
  if (column.type === 'dynamic') return 'CAST(? AS JSON)';
  if (column.type === 'datetime') return 'CAST(? AS TIMESTAMP)';
  return '?';
}

/** The SQL text of a datetime column value: DuckDB reads 'YYYY-MM-DD HH:MM:SS.ffffff' as UTC. */
const sqlTimestamp = (iso: string): string => iso.replace('T', ' ').replace(/Z$/i, '');

function cell(column: ColumnDef, row: Readonly<Record<string, unknown>>): DuckDBValue {
  const value = row[column.name];
  if (value === undefined || value === null) return column.type === 'string' ? '' : null;
  if (column.type === 'dynamic') return JSON.stringify(value);
  if (column.type === 'datetime') return sqlTimestamp(String(value));
  return value as DuckDBValue;
}

async function insertRows(connection: DuckDBConnection, table: TableName, customerId: string, rows: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
  const columns = TABLES[table];
  const names = [CUSTOMER_COLUMN, ...columns.map((c) => c.name)].map((n) => `"${n}"`).join(', ');
  const tuple = `(?, ${columns.map(placeholder).join(', ')})`;
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const values: DuckDBValue[] = [];
    for (const row of chunk) values.push(customerId, ...columns.map((c) => cell(c, row)));
    await connection.run(`INSERT INTO "${table}" (${names}) VALUES ${chunk.map(() => tuple).join(', ')}`, values);
  }
}

async function deleteMessages(connection: DuckDBConnection, table: TableName, customerId: string, rows: readonly { AgentId: string; MessageId: string }[]): Promise<void> {
  const keys = [...new Set(rows.map((r) => `${r.AgentId}\u0000${r.MessageId}`))].map((k) => k.split('\u0000') as [string, string]);
  for (let start = 0; start < keys.length; start += ROWS_PER_STATEMENT) {
    const chunk = keys.slice(start, start + ROWS_PER_STATEMENT);
    const values: DuckDBValue[] = [customerId, ...chunk.flat()];
    await connection.run(`DELETE FROM "${table}" WHERE "${CUSTOMER_COLUMN}" = ? AND ("AgentId", "MessageId") IN (${chunk.map(() => '(?, ?)').join(', ')})`, values);
  }
}

export function duckDbTelemetryStore(file: string): TelemetryStore {
  return {
    async write(batch: TelemetryWrite) {
      await withConnection(file, async (connection) => {
        await connection.run('BEGIN TRANSACTION');
        try {
          for (const [table, rows] of [['States', batch.states], ['Events', batch.events]] as const) {
            if (rows.length === 0) continue;
            await deleteMessages(connection, table, batch.customerId, rows);
            await insertRows(connection, table, batch.customerId, rows as unknown as readonly Readonly<Record<string, unknown>>[]);
          }
          await connection.run('COMMIT');
        } catch (error) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
      return { rejected: [] };
    },
  };
}
