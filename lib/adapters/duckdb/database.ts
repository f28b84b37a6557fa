// The embedded telemetry engine: one DuckDB database file under .data/, shared by every function
// of the local stack. serverless-offline runs handlers in-process (useInProcess), and
// DuckDBInstance.fromCache hands every caller in the process the same instance, so the file has
// exactly one writer, as DuckDB requires.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { TELEMETRY_DDL } from './telemetry-ddl';

const ready = new Map<string, Promise<DuckDBInstance>>();

/** Opens (once per process and path) the database and creates the telemetry tables. */
export function telemetryDatabase(file: string): Promise<DuckDBInstance> {
  let instance = ready.get(file);
  if (!instance) {
    instance = (async () => {
      if (file !== ':memory:') await mkdir(path.dirname(file), { recursive: true });
      const db = await DuckDBInstance.fromCache(file);
      const connection = await db.connect();
      try {
        for (const statement of TELEMETRY_DDL) await connection.run(statement);
      } finally {
        connection.closeSync();
      }
      return db;
    })();
    instance.catch(() => ready.delete(file));
    ready.set(file, instance);
  }
  return instance;
}

/** Runs work on a fresh connection of the shared instance and closes it afterwards. */
export async function withConnection<T>(file: string, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const db = await telemetryDatabase(file);
  const connection = await db.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
  }
}

/** Health probe: the engine answers and both tables exist. */
export async function pingDuckDb(file: string): Promise<void> {
  await withConnection(file, async (c) => {
    await c.run('SELECT count(*) FROM "States" LIMIT 0');
    await c.run('SELECT count(*) FROM "Events" LIMIT 0');
  });
}
