// What the deployed telemetry store (Timestream for LiveAnalytics) accepts, as a pure check, so the
// local stack refuses the same messages (docs/telemetry-mapping.md "What the store accepts"):
// - a record's time at most 15 minutes ahead of the store's clock ("future ingestion period");
// - not older than the memory store's retention, or, with magnetic-store writes on, than the
//   magnetic store's retention;
// - a record of at most 2 KB ("maximum record size"), counted as Timestream meters a write: 8 bytes
//   for the time, the UTF-8 bytes of every dimension name and value, of the measure name and of each
//   measure's name, and per value 1 byte (BOOLEAN), 8 (BIGINT, DOUBLE, TIMESTAMP) or its UTF-8 bytes
//   (VARCHAR), for the record lib/telemetry/timestream-layout.ts toTimestreamRecord builds.
import { timestreamRecordBytes } from './timestream-layout';
import type { EventRow, TableName, TelemetryRow } from './tables';

/** Timestream's fixed limits (service quotas, not adjustable). */
export const TIMESTREAM_FUTURE_MS = 15 * 60_000;
export const TIMESTREAM_MAX_RECORD_BYTES = 2048;

export interface StoreRules {
  /** Largest lead of a row's time over now. */
  readonly maxFutureMs: number;
  /** Largest age of a row's time. */
  readonly maxAgeMs: number;
  readonly maxRecordBytes: number;
}

/** The rules of a store with these retention settings (the Timestream tables' properties). */
export function storeRulesOf(settings: {
  readonly memoryRetentionHours: number;
  readonly magneticRetentionDays: number;
  readonly magneticWrites: boolean;
}): StoreRules {
  return {
    maxFutureMs: TIMESTREAM_FUTURE_MS,
    maxAgeMs: settings.magneticWrites
      ? settings.magneticRetentionDays * 86_400_000
      : settings.memoryRetentionHours * 3_600_000,
    maxRecordBytes: TIMESTREAM_MAX_RECORD_BYTES,
  };
}

export type StoreRuleCode = 'TIME_IN_FUTURE' | 'TIME_TOO_OLD' | 'RECORD_TOO_LARGE';

export interface StoreRuleViolation {
  readonly code: StoreRuleCode;
  readonly table: TableName;
  /** Index of the row in its table's rows of the write. */
  readonly index: number;
  readonly agentId: string;
  readonly messageId: string;
  /** A sentence naming the row's item, the value found and the limit. */
  readonly message: string;
  /** RECORD_TOO_LARGE: the record's size in bytes. */
  readonly bytes?: number;
}

/** The size of a record's parts as Timestream counts it (single- or multi-measure shape). */
export interface SizedRecord {
  readonly Dimensions?: readonly { readonly Name: string; readonly Value: string }[];
  readonly MeasureName?: string;
  readonly MeasureValue?: string;
  readonly MeasureValueType?: string;
  readonly MeasureValues?: readonly { readonly Name: string; readonly Value: string; readonly Type: string }[];
}

const utf8 = (text: string | undefined): number => (text === undefined ? 0 : Buffer.byteLength(text, 'utf8'));

function valueBytes(type: string | undefined, value: string): number {
  if (type === 'BOOLEAN') return 1;
  if (type === 'BIGINT' || type === 'DOUBLE' || type === 'TIMESTAMP') return 8;
  return utf8(value);
}

export function recordBytes(record: SizedRecord): number {
  let bytes = 8 + utf8(record.MeasureName);
  for (const d of record.Dimensions ?? []) bytes += utf8(d.Name) + utf8(d.Value);
  if (record.MeasureValue !== undefined) bytes += valueBytes(record.MeasureValueType, record.MeasureValue);
  for (const m of record.MeasureValues ?? []) bytes += utf8(m.Name) + valueBytes(m.Type, m.Value);
  return bytes;
}

/**
 * Sizes of the records of one table's rows, numbered as the Timestream writer numbers them
 * (ValueIndex counts the values of one data item of one message: adapters/timestream/telemetry-store.ts).
 */
export function recordSizes(table: TableName, customerId: string, rows: readonly TelemetryRow[]): number[] {
  const json = new WeakMap<object, string>();
  return valueIndexes(rows).map((index, i) => timestreamRecordBytes(table, customerId, index, rows[i]!, json));
}

/** ValueIndex of each row: the values of one data item of one message are numbered from 0. */
function valueIndexes(rows: readonly TelemetryRow[]): number[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const key = `${row.AgentId}\u0000${row.MessageId}\u0000${row.NameId}`;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    return index;
  });
}

/** Microseconds since the epoch of an ISO time with up to microsecond digits. */
function micros(iso: string): number {
  // The rows' canonical form (lib/telemetry/time.ts toUtcIso): YYYY-MM-DDTHH:MM:SS.ffffffZ.
  if (iso.length === 27 && iso[19] === '.' && iso[26] === 'Z')
    return Date.parse(iso) * 1000 + Number(iso.slice(23, 26));
  const ms = Date.parse(iso);
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  return ms * 1000 + Number((fraction + '000000').slice(3, 6));
}

const item = (row: TelemetryRow): string => `item '${row.Name || row.NameId}' of message ${row.MessageId}`;
const minutes = (us: number): string => `${(us / 60_000_000).toFixed(1)} min`;

/** Why the deployed store would refuse each row of a write (none: all accepted). */
export function storeRuleViolations(
  write: {
    readonly customerId: string;
    readonly states: readonly TelemetryRow[];
    readonly events: readonly EventRow[];
  },
  now: Date,
  rules: StoreRules,
): StoreRuleViolation[] {
  const violations: StoreRuleViolation[] = [];
  const nowUs = now.getTime() * 1000;
  for (const [table, rows] of [
    ['States', write.states],
    ['Events', write.events],
  ] as const) {
    const indexes = valueIndexes(rows);
    const json = new WeakMap<object, string>();
    rows.forEach((row, index) => {
      const at = () => ({ table, index, agentId: row.AgentId, messageId: row.MessageId });
      const time = micros(row.Timestamp);
      if (time - nowUs > rules.maxFutureMs * 1000) {
        violations.push({
          ...at(),
          code: 'TIME_IN_FUTURE',
          message: `${item(row)}: Timestamp ${row.Timestamp} is ${minutes(time - nowUs)} ahead of now; the store accepts at most ${minutes(rules.maxFutureMs * 1000)}`,
        });
      } else if (nowUs - time > rules.maxAgeMs * 1000) {
        violations.push({
          ...at(),
          code: 'TIME_TOO_OLD',
          message: `${item(row)}: Timestamp ${row.Timestamp} is older than the store keeps (${rules.maxAgeMs / 86_400_000} days)`,
        });
      }
      // The exact size only when the cheap upper bound does not already show the record fits.
      const fits =
        timestreamRecordBytes(table, write.customerId, indexes[index]!, row, json, true) <= rules.maxRecordBytes;
      const bytes = fits ? 0 : timestreamRecordBytes(table, write.customerId, indexes[index]!, row, json);
      if (bytes > rules.maxRecordBytes) {
        violations.push({
          ...at(),
          code: 'RECORD_TOO_LARGE',
          bytes,
          message: `${item(row)}: its record is ${bytes} bytes; the store accepts at most ${rules.maxRecordBytes} (message and item metadata and the value are copied into every record)`,
        });
      }
    });
  }
  return violations;
}

const PRIORITY: readonly StoreRuleCode[] = ['TIME_IN_FUTURE', 'TIME_TOO_OLD', 'RECORD_TOO_LARGE'];
const DETAILS_KEPT = 20;

/**
 * One reason for a message with violations (a clock ahead first, then age, then size), a sentence,
 * and the first violations as details: the message is dead-lettered whole and nothing is stored.
 */
export function refusalOf(
  violations: readonly StoreRuleViolation[],
): { reason: StoreRuleCode; message: string; details: StoreRuleViolation[] } | undefined {
  const reason = PRIORITY.find((code) => violations.some((v) => v.code === code));
  if (reason === undefined) return undefined;
  const first = violations.find((v) => v.code === reason)!;
  const rows = new Set(violations.map((v) => `${v.table}:${v.index}`)).size;
  return {
    reason,
    message: `the telemetry store would refuse ${rows} row(s) of this message; first: ${first.message}`,
    details: violations.slice(0, DETAILS_KEPT),
  };
}
