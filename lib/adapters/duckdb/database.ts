// The embedded telemetry engine: one DuckDB database file under .data/, shared by every function
// of the local stack. serverless-offline runs handlers in-process (useInProcess), and
// DuckDBInstance.fromCache hands every caller in the process the same instance, so the file has
// exactly one writer, as DuckDB requires.
//
// The instance is sandboxed: no file, network or extension access beyond its own database file,
// a memory limit and a thread count for the host, an explicit expression-depth limit, and then
// its configuration locked, so no SQL can change any of it (docs/query-api.md, "Limits").
import { mkdir } from 'node:fs/promises';
import { availableParallelism, totalmem } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { duckDbConfig } from '../../core/config';
import { TELEMETRY_DDL } from '../../telemetry/duckdb-layout';

/**
 * DuckDB's default, set explicitly: the compiler's nesting limits stay well below it, so a query
 * that passes the compiler is never refused for depth (a deeper one would be a 400 anyway).
 */
export const MAX_EXPRESSION_DEPTH = 1000;

/** A quarter of the host's memory, between 256 MB and 4 GB. */
function defaultMemoryLimit(): string {
  return `${Math.min(4096, Math.max(256, Math.floor(totalmem() / 4 / 2 ** 20)))}MB`;
}

/** What a database file holds and how it is kept. */
export interface DatabaseSchema {
  /** Statements that create its tables (idempotent). */
  readonly ddl: readonly string[];
  /**
   * Whether checkpoints may merge row groups (DuckDB's vacuum). Off for the telemetry tables: with
   * appends of varying sizes, every few checkpoints merged the recent partial row groups and
   * stalled every writer and reader for 1.5-2.5 s (bench/ingest.bench.ts). They are append-only,
   * so there is little to reclaim. On for tables that delete (the ingest ledger's sweep).
   */
  readonly vacuum: boolean;
}

export const TELEMETRY_SCHEMA: DatabaseSchema = { ddl: TELEMETRY_DDL, vacuum: false };

/**
 * Optimizer passes turned off on every instance that runs compiled queries (the service's, and the
 * tests' in-memory ones, so they answer as the service does). DuckDB 1.5's `top_n_window_elimination`
 * rewrites a `row_number() ... <= 1` filter into an aggregate: over no rows without PARTITION BY it
 * answers one row of nulls (`... | where n > 5 | sort by n | extend r = row_number() | where r <= 1`
 * gave a row on empty input), and with a NaN sort key it picked wrong rows.
 */
export const PLAN_OPTIONS: Readonly<Record<string, string>> = { disabled_optimizers: 'top_n_window_elimination' };

/**
 * The instance options. Every function bundle of the process computes the same ones (the
 * instance cache refuses a second caller with other options). TimeZone cannot be one of them:
 * it needs the ICU extension, loaded only after the options are applied (see sandbox()).
 * DuckDB's own checkpoint threshold is a backstop at four times ours: the telemetry store
 * checkpoints in the background at DUCKDB_CHECKPOINT_THRESHOLD (telemetry-store.ts), which keeps
 * the checkpoints out of the commits of ingest.
 */
export function instanceOptions(schema: DatabaseSchema = TELEMETRY_SCHEMA): Record<string, string> {
  const settings = duckDbConfig();
  return {
    enable_external_access: 'false',
    autoload_known_extensions: 'false',
    autoinstall_known_extensions: 'false',
    memory_limit: settings.DUCKDB_MEMORY_LIMIT ?? defaultMemoryLimit(),
    threads: String(settings.DUCKDB_THREADS ?? availableParallelism()),
    max_expression_depth: String(MAX_EXPRESSION_DEPTH),
    checkpoint_threshold: `${Math.round((4 * checkpointBytes()) / 2 ** 20)}MB`,
    ...(schema.vacuum ? {} : { max_vacuum_tasks: '0' }),
    ...PLAN_OPTIONS,
  };
}

const UNITS: Readonly<Record<string, number>> = {
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KIB: 2 ** 10,
  MIB: 2 ** 20,
  GIB: 2 ** 30,
  TIB: 2 ** 40,
};

/** DUCKDB_CHECKPOINT_THRESHOLD in bytes. */
export function checkpointBytes(): number {
  const [, amount = '0', unit = 'MB'] =
    /^(\d+(?:\.\d+)?)\s*([KMGT]i?B)$/i.exec(duckDbConfig().DUCKDB_CHECKPOINT_THRESHOLD) ?? [];
  return Number(amount) * (UNITS[unit.toUpperCase()] ?? 1e6);
}

async function isLocked(connection: DuckDBConnection): Promise<boolean> {
  const reader = await connection.runAndReadAll("SELECT current_setting('lock_configuration')");
  return reader.getRowsJson()[0]?.[0] === true;
}

/**
 * Makes UTC every connection's time zone, then locks the configuration. Another function bundle
 * of the same process may have done it first on the shared instance: then there is nothing to do.
 * @throws Error when the instance ends up unlocked or not in UTC.
 */
async function sandbox(connection: DuckDBConnection): Promise<void> {
  if (!(await isLocked(connection))) {
    try {
      await connection.run("SET GLOBAL TimeZone = 'UTC'");
      await connection.run('SET GLOBAL lock_configuration = true');
    } catch (error) {
      if (!(await isLocked(connection))) throw error;
    }
  }
  const zone = (await connection.runAndReadAll("SELECT current_setting('TimeZone')")).getRowsJson()[0]?.[0];
  if (zone !== 'UTC') throw new Error(`the telemetry database is locked in time zone ${String(zone)}, not UTC`);
}

const ready = new Map<string, Promise<DuckDBInstance>>();

/** Opens (once per process and path) the sandboxed database with the telemetry tables. */
export function telemetryDatabase(file: string): Promise<DuckDBInstance> {
  return openDatabase(file, TELEMETRY_SCHEMA);
}

/** Opens (once per process and path) a sandboxed database and creates its tables. */
export function openDatabase(file: string, schema: DatabaseSchema): Promise<DuckDBInstance> {
  let instance = ready.get(file);
  if (!instance) {
    instance = (async () => {
      if (file !== ':memory:') await mkdir(path.dirname(file), { recursive: true });
      const db = await DuckDBInstance.fromCache(file, instanceOptions(schema));
      const connection = await db.connect();
      try {
        for (const statement of schema.ddl) await connection.run(statement);
        await sandbox(connection);
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

/** Errors after which DuckDB refuses every further statement on the instance. */
const INVALIDATING = /^(?:INTERNAL|FATAL) Error|database has been invalidated/m;

/** Idle connections per database file (UTC is the instance's time zone, see sandbox()). */
const idle = new Map<string, DuckDBConnection[]>();
const MAX_IDLE = 8;

async function takeConnection(file: string, schema: DatabaseSchema): Promise<DuckDBConnection> {
  const pooled = idle.get(file)?.pop();
  if (pooled) return pooled;
  return (await openDatabase(file, schema)).connect();
}

/**
 * Runs work on a connection of the shared instance (UTC) of a database file, opened with its
 * schema (the telemetry tables by default). A connection whose work succeeded goes back to a small
 * idle pool: opening one costs a noticeable part of a small query. One whose work failed (an
 * interrupt, an aborted transaction) is closed, never reused.
 */
export async function withConnection<T>(
  file: string,
  work: (connection: DuckDBConnection) => Promise<T>,
  schema: DatabaseSchema = TELEMETRY_SCHEMA,
): Promise<T> {
  const connection = await takeConnection(file, schema);
  const owner = ready.get(file);
  let result: T;
  try {
    result = await work(connection);
  } catch (error) {
    connection.closeSync();
    // After an internal error DuckDB invalidates the instance, and every later statement fails:
    // close it, so that the next caller opens the file again (replaying its write-ahead log).
    if (INVALIDATING.test((error as Error)?.message ?? '') && ready.get(file) === owner)
      await closeTelemetryDatabase(file).catch(() => undefined);
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
