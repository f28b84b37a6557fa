// A QueryEngine on an in-memory DuckDB for unit tests of the query and Kusto services: the compiled
// SQL runs for real (no limits, no interrupts: the adapter's own tests cover those), and its rows
// are converted as the adapter converts them. Its sessions are the adapter's.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { PLAN_OPTIONS } from '../../lib/adapters/duckdb/database';
import { convertRows } from '../../lib/query';
import { inDuckDbSession } from '../../lib/adapters/duckdb/query-engine';
import type { QueryEngine } from '../../lib/query-api/ports';

export interface MemoryEngine {
  readonly engine: QueryEngine;
  close(): void;
}

/** `ddl` runs first (e.g. the telemetry tables); `seen` receives each statement the engine is given. */
export async function memoryEngine(
  options: { ddl?: readonly string[]; seen?: (sql: string) => void } = {},
): Promise<MemoryEngine> {
  const instance = await DuckDBInstance.create(':memory:', { ...PLAN_OPTIONS });
  const connection = await instance.connect();
  for (const statement of options.ddl ?? []) await connection.run(statement);
  const engine: QueryEngine = {
    dialect: 'duckdb',
    run: async (sql, types, sink) => {
      options.seen?.(sql);
      const rows = convertRows((await connection.runAndReadAll(sql)).getRowsJson() as unknown[][], [...types]);
      for (const row of rows) if (!sink.push(row)) return;
    },
    // The adapter's sessions (its tables stored on the one connection), its statements not seen.
    session: (work) => inDuckDbSession(connection, work),
  };
  return { engine, close: () => instance.closeSync() };
}

export interface MemoryConnection {
  readonly connection: DuckDBConnection;
  close(): void;
}

/** A connection of a new in-memory DuckDB in UTC, for tests that read the engine's results themselves. */
export async function memoryConnection(): Promise<MemoryConnection> {
  const instance = await DuckDBInstance.create(':memory:', { ...PLAN_OPTIONS });
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  return { connection, close: () => (connection.closeSync(), instance.closeSync()) };
}
