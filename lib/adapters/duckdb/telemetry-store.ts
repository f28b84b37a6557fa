// TelemetryStore on the embedded DuckDB file. Rows go in through DuckDB's appender (the fast
// bulk path) inside one transaction per write (the rows of a whole batch of messages). Messages
// listed in `replace` (an earlier run did not finish them) first lose the rows that run wrote,
// in the same transaction, so nothing is doubled.
import { stat } from 'node:fs/promises';
import { DuckDBTimestampValue, type DuckDBAppender, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { MessageKey, TelemetryStore, TelemetryWrite } from '../../ingest/ports';
import { TABLES, type ColumnDef, type TableName } from '../../telemetry/tables';
import { CUSTOMER_COLUMN } from '../../telemetry/duckdb-layout';
import { checkpointBytes, withConnection } from './database';

/** Microseconds since the epoch of a canonical UTC ISO string (`...T..:..:...ffffffZ`). */
export function isoToMicros(iso: string): bigint {
  const ms = Date.parse(`${iso.slice(0, 19)}Z`);
  if (!Number.isFinite(ms)) throw new RangeError(`not a UTC date-time: ${iso}`);
  const fraction = (iso.slice(20).replace(/Z$/i, '') + '000000').slice(0, 6);
  return BigInt(ms) * 1000n + BigInt(fraction);
}

/**
 * Conversions shared by many rows of one write: a message's times and metadata, an item's
 * metadata, are the same objects and strings on every row of it, so each is converted once.
 */
interface CellCache {
  readonly micros: Map<string, bigint>;
  readonly json: WeakMap<object, string>;
}

function appendCell(appender: DuckDBAppender, column: ColumnDef, value: unknown, cache: CellCache): void {
  if (value === undefined || value === null) {
    if (column.type === 'string') appender.appendVarchar('');
    else appender.appendNull();
    return;
  }
  switch (column.type) {
    case 'dynamic': {
      if (typeof value !== 'object') return appender.appendVarchar(JSON.stringify(value));
      let text = cache.json.get(value);
      if (text === undefined) cache.json.set(value, (text = JSON.stringify(value)));
      appender.appendVarchar(text);
      return;
    }
    case 'datetime': {
      const iso = String(value);
      let micros = cache.micros.get(iso);
      if (micros === undefined) cache.micros.set(iso, (micros = isoToMicros(iso)));
      appender.appendTimestamp(new DuckDBTimestampValue(micros));
      return;
    }
    case 'bool':
      appender.appendBoolean(Boolean(value));
      return;
    default:
      appender.appendVarchar(String(value));
  }
}

async function appendRows(
  connection: DuckDBConnection,
  table: TableName,
  customerId: string,
  rows: readonly Readonly<Record<string, unknown>>[],
): Promise<void> {
  const columns = TABLES[table];
  const cache: CellCache = { micros: new Map(), json: new WeakMap() };
  const appender = await connection.createAppender(table);
  try {
    for (const row of rows) {
      appender.appendVarchar(customerId);
      for (const column of columns) appendCell(appender, column, row[column.name], cache);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/** Removes the rows an earlier, unfinished run wrote for these messages (one statement per table). */
async function deleteMessages(
  connection: DuckDBConnection,
  table: TableName,
  customerId: string,
  keys: readonly MessageKey[],
): Promise<void> {
  const values: DuckDBValue[] = [customerId, ...keys.flatMap((k) => [k.agentId, k.messageId])];
  await connection.run(
    `DELETE FROM "${table}" WHERE "${CUSTOMER_COLUMN}" = ? AND ("AgentId", "MessageId") IN (${keys.map(() => '(?, ?)').join(', ')})`,
    values,
  );
}

/** One write in one transaction on the given connection (the store's unit of work). */
export async function writeTelemetry(connection: DuckDBConnection, batch: TelemetryWrite): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  try {
    for (const [table, rows] of [
      ['States', batch.states],
      ['Events', batch.events],
    ] as const) {
      if (batch.replace && batch.replace.length > 0)
        await deleteMessages(connection, table, batch.customerId, batch.replace);
      if (rows.length === 0) continue;
      await appendRows(
        connection,
        table,
        batch.customerId,
        rows as unknown as readonly Readonly<Record<string, unknown>>[],
      );
    }
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Checkpoints a database in the background once its write-ahead log has grown past the threshold,
 * one checkpoint at a time. DuckDB's own checkpoints run inside the commit that crosses its
 * threshold and stall that batch; from another connection, appends go on while it runs.
 */
export function backgroundCheckpointer(
  file: string,
  thresholdBytes: number,
  log: (message: string) => void = () => undefined,
): { afterWrite(): Promise<void>; idle(): Promise<void> } {
  let running: Promise<void> | undefined;
  return {
    async afterWrite() {
      if (running) return;
      const wal = await stat(`${file}.wal`).then(
        (s) => s.size,
        () => 0,
      );
      if (wal < thresholdBytes || running) return;
      running = withConnection(file, (c) => c.run('CHECKPOINT').then(() => undefined))
        // Refused while another transaction changes the database: the next write tries again.
        .catch((error: Error) =>
          log(`background checkpoint not done (${error.message.split('\n')[0]}); trying after the next write`),
        )
        .finally(() => (running = undefined));
    },
    idle: () => running ?? Promise.resolve(),
  };
}

export function duckDbTelemetryStore(
  file: string,
  options: { readonly checkpointBytes?: number; readonly log?: (message: string) => void } = {},
): TelemetryStore {
  const checkpoints = backgroundCheckpointer(file, options.checkpointBytes ?? checkpointBytes(), options.log);
  return {
    async write(batch: TelemetryWrite) {
      await withConnection(file, (connection) => writeTelemetry(connection, batch));
      await checkpoints.afterWrite();
      return { rejected: [] };
    },
  };
}
