// TelemetryStore on Amazon Timestream for LiveAnalytics (layout: docs/telemetry-mapping.md).
// Multi-measure records, at most 100 per WriteRecords call, dimensions shared by a whole call
// sent once as CommonAttributes, Version = ingestion time so that a redelivered message (same
// record, later ingestion) is accepted as an upsert instead of rejected. The SDK retries throttling
// and server errors (sdk-config.ts). Records Timestream rejects (RejectedRecordsException: a
// duplicate with another value, a time outside the store's window, a limit) are final, not
// retried: they are returned.
// One write() may carry the rows of many messages: its calls run a few at a time (independent
// requests; order does not matter to Timestream, which keys records by time and dimensions).
import {
  RejectedRecordsException,
  TimestreamWriteClient,
  WriteRecordsCommand,
  type _Record,
  type Dimension,
  type WriteRecordsCommandInput,
} from '@aws-sdk/client-timestream-write';
import type { RejectedRow, TelemetryStore, TelemetryWrite } from '../../ingest/ports';
import { toTimestreamRecord } from '../../telemetry/timestream-layout';
import type { TableName, TelemetryRow } from '../../telemetry/tables';
import { sdkClientConfig } from '../sdk-config';

export const MAX_RECORDS_PER_CALL = 100;
/** WriteRecords calls of one write() in flight at once. */
export const DEFAULT_WRITE_CONCURRENCY = 4;

export interface TimestreamStoreOptions {
  readonly database: string;
  readonly statesTable: string;
  readonly eventsTable: string;
  readonly client?: TimestreamWriteClient;
  /** WriteRecords calls at once (default DEFAULT_WRITE_CONCURRENCY). */
  readonly concurrency?: number;
}

interface RowRecord {
  readonly record: _Record;
  readonly messageId: string;
}

/** Records of one table's rows; ValueIndex numbers the values of one data item of one message. */
export function recordsOf(table: TableName, customerId: string, rows: readonly TelemetryRow[]): RowRecord[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const key = `${row.AgentId}\u0000${row.MessageId}\u0000${row.NameId}`;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    const parts = toTimestreamRecord(table, customerId, index, row);
    const version = Date.parse(row.IngestionTimestamp);
    return {
      record: { ...parts, Version: Number.isFinite(version) ? version : Date.now() } as _Record,
      messageId: row.MessageId,
    };
  });
}

/** Builds one WriteRecords request: the dimensions and fields every record shares move to CommonAttributes. */
export function writeRequest(database: string, table: string, records: readonly _Record[]): WriteRecordsCommandInput {
  const first = records[0];
  if (!first) throw new Error('writeRequest needs at least one record');
  const sameValue = (d: Dimension) =>
    records.every((r) => r.Dimensions?.some((x) => x.Name === d.Name && x.Value === d.Value));
  const common = (first.Dimensions ?? []).filter(sameValue);
  const commonNames = new Set(common.map((d) => d.Name));
  const sameVersion = records.every((r) => r.Version === first.Version);
  return {
    DatabaseName: database,
    TableName: table,
    CommonAttributes: {
      MeasureName: first.MeasureName,
      MeasureValueType: 'MULTI',
      TimeUnit: first.TimeUnit,
      Dimensions: common,
      ...(sameVersion ? { Version: first.Version } : {}),
    },
    Records: records.map((r) => ({
      Time: r.Time,
      MeasureValues: r.MeasureValues,
      Dimensions: (r.Dimensions ?? []).filter((d) => !commonNames.has(d.Name)),
      ...(sameVersion ? {} : { Version: r.Version }),
    })),
  };
}

export function timestreamTelemetryStore(options: TimestreamStoreOptions): TelemetryStore {
  const client = options.client ?? new TimestreamWriteClient(sdkClientConfig({}));
  const tableName = (table: TableName) => (table === 'States' ? options.statesTable : options.eventsTable);

  async function writeChunk(table: TableName, chunk: readonly RowRecord[]): Promise<RejectedRow[]> {
    const request = writeRequest(
      options.database,
      tableName(table),
      chunk.map((c) => c.record),
    );
    try {
      await client.send(new WriteRecordsCommand(request));
      return [];
    } catch (error) {
      // Timestream writes the valid records of the call and lists the others: those are final.
      if (error instanceof RejectedRecordsException) {
        return (error.RejectedRecords ?? []).map((r) => ({
          table,
          messageId: chunk[r.RecordIndex ?? -1]?.messageId ?? '',
          reason: `${r.Reason ?? 'rejected'}${r.ExistingVersion !== undefined ? ` (existing version ${r.ExistingVersion})` : ''}`,
        }));
      }
      throw error;
    }
  }

  return {
    async write(batch: TelemetryWrite) {
      const chunks: Array<{ table: TableName; records: RowRecord[] }> = [];
      for (const [table, rows] of [
        ['States', batch.states],
        ['Events', batch.events],
      ] as const) {
        const records = recordsOf(table, batch.customerId, rows);
        for (let i = 0; i < records.length; i += MAX_RECORDS_PER_CALL)
          chunks.push({ table, records: records.slice(i, i + MAX_RECORDS_PER_CALL) });
      }
      const rejected = await inPool(chunks, options.concurrency ?? DEFAULT_WRITE_CONCURRENCY, (c) =>
        writeChunk(c.table, c.records),
      );
      return { rejected: rejected.flat() };
    },
  };
}

/**
 * Runs fn over the items, at most `limit` at once; results in item order. After a failure no new
 * item starts; the ones under way finish, then the first error is thrown.
 */
async function inPool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}
