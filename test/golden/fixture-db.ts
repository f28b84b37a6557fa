// Loads the fixed telemetry fixture (test/fixtures/telemetry/) into an in-memory DuckDB with the
// production DDL, and runs compiled SQL on it. Dynamic nulls are stored as SQL NULL.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { PLAN_OPTIONS } from '../../lib/adapters/duckdb/database';
import { TELEMETRY_DDL } from '../../lib/telemetry/duckdb-layout';
import { TABLES, type TableName } from '../../lib/telemetry/tables';
import type { CompileOptions } from '../../lib/query/index';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/telemetry');

/** The compile options every golden case uses unless its options.json overrides the scope. */
export const GOLDEN_OPTIONS: Omit<CompileOptions, 'dialect'> = {
  scope: {
    customerId: 'cust-a',
    plantIds: null,
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 1000,
  // current_principal() and current_database(), in the form the query service gives (lib/query-api/identity.ts).
  identity: { principal: 'app=golden-client;cust-a', database: 'cust-a' },
};

export async function openFixtureDb(): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:', { ...PLAN_OPTIONS });
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  for (const ddl of TELEMETRY_DDL) await connection.run(ddl);
  await load(connection, 'States', 'states.json');
  await load(connection, 'Events', 'events.json');
  return connection;
}

async function load(connection: DuckDBConnection, table: TableName, file: string): Promise<void> {
  const rows = JSON.parse(readFileSync(path.join(fixtures, file), 'utf8')) as Record<string, unknown>[];
  const columns = ['CustomerId', ...TABLES[table].map((c) => c.name)];
  const types = new Map(TABLES[table].map((c) => [c.name, c.type]));
  const placeholders = columns
    .map((c) =>
      types.get(c) === 'dynamic' ? 'CAST(? AS JSON)' : types.get(c) === 'datetime' ? 'CAST(? AS TIMESTAMP)' : '?',
    )
    .join(', ');
  const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders})`;
  for (const row of rows) {
    const values = columns.map((c) => {
      const v = row[c];
      if (v === null || v === undefined) return types.get(c) === 'string' ? '' : null;
      if (types.get(c) === 'dynamic') return JSON.stringify(v);
      if (types.get(c) === 'datetime') return String(v).replace('T', ' ').replace('Z', '');
      return v as string | number | boolean;
    });
    await connection.run(sql, values);
  }
}

/** Runs SQL and returns the rows as getRowsJson() gives them (the reader the adapter should use). */
export async function runSql(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowsJson() as unknown[][];
}
