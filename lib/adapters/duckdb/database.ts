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

/** Idle connections per database file, each already in the UTC session every caller expects. */
const idle = new Map<string, DuckDBConnection[]>();
const MAX_IDLE = 8;

async function takeConnection(file: string): Promise<DuckDBConnection> {
  const pooled = idle.get(file)?.pop();
  if (pooled) return pooled;
  const connection = await (await telemetryDatabase(file)).connect();
  await connection.run("SET TimeZone = 'UTC'");
  return connection;
}

/**
 * Runs work on a connection of the shared instance (UTC session). A connection whose work
 * succeeded goes back to a small idle pool: opening one and setting its session cost 0.25 ms,
 * a third of a small query. One whose work failed (an interrupt, an aborted transaction) is
 * closed, never reused.
 */
export async function withConnection<T>(file: string, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const connection = await takeConnection(file);
  const owner = ready.get(file);
  let result: T;
  try {
    result = await work(connection);
  } catch (error) {
    connection.closeSync();
    throw error;
  }
  const pool = idle.get(file) ?? [];
  idle.set(file, pool);
  // Not pooled if the database was closed meanwhile: it would keep the closed file open.
  if (ready.get(file) === owner && pool.length < MAX_IDLE) pool.push(connection);
  else connection.closeSync();
  return result;
}

/**
 * Closes the process's instance of a database file (idle connections first) so that another
 * process may open the file; the next withConnection opens it again. Connections still lent out
 * keep the file open until they finish.
 */
export async function closeTelemetryDatabase(file: string): Promise<void> {
  const instance = ready.get(file);
  if (!instance) return;
  ready.delete(file);
  for (const connection of idle.get(file) ?? []) connection.closeSync();
  idle.delete(file);
  (await instance).closeSync();
}

/** Health probe: the engine answers and both tables exist. */
export async function pingDuckDb(file: string): Promise<void> {
  await withConnection(file, async (c) => {
    await c.run('SELECT count(*) FROM "States" LIMIT 0');
    await c.run('SELECT count(*) FROM "Events" LIMIT 0');
  });
}
