// Physical layout of the logical telemetry tables (./tables.ts) in Amazon Timestream for LiveAnalytics
// (docs/telemetry-mapping.md). Shared by the query compiler (reading) and the ingest adapter (writing),
// so both sides agree on names and types. Plain data and pure functions: no SDK import.
import { TABLES, type EventRow, type TableName, type TelemetryRow } from './tables';

/** Every record is a multi-measure record (MeasureValueType MULTI) with this measure name. */
export const TIMESTREAM_MEASURE_NAME = 'gdm';
/** Default database name; the deployed name comes from configuration. */
export const DEFAULT_TIMESTREAM_DATABASE = 'insights_telemetry';

export type TimestreamMeasureType = 'VARCHAR' | 'DOUBLE' | 'BIGINT' | 'BOOLEAN' | 'TIMESTAMP';

/**
 * Dimensions (always strings). Timestream drops empty dimension values, which read back as NULL,
 * so the query side maps them back with coalesce(..., ''). CustomerId and ValueIndex are not logical
 * columns: CustomerId scopes every query, ValueIndex keeps two values of one data item with the same
 * timestamp apart (Timestream keys a record by time + dimensions + measure name).
 */
export const TIMESTREAM_DIMENSIONS: readonly string[] = [
  'CustomerId',
  'PlantId',
  'Uid',
  'DeviceId',
  'AgentId',
  'IngestionId',
  'MessageId',
  'MessageType',
  'MessageVersion',
  'NameId',
  'Name',
  'EquipmentId',
  'Unit',
  'ValueIndex',
];

export interface MeasureDef {
  readonly name: string;
  readonly type: TimestreamMeasureType;
  /** The logical column it holds, if any (typed companions such as ValueDouble have none). */
  readonly logical?: string;
}

const COMMON_MEASURES: readonly MeasureDef[] = [
  { name: 'AgentTimestamp', type: 'TIMESTAMP', logical: 'AgentTimestamp' },
  { name: 'IngestionTimestamp', type: 'TIMESTAMP', logical: 'IngestionTimestamp' },
  { name: 'MessageMetadata', type: 'VARCHAR', logical: 'MessageMetadata' },
  { name: 'Value', type: 'VARCHAR', logical: 'Value' },
  { name: 'ValueDouble', type: 'DOUBLE' },
  { name: 'ValueBool', type: 'BOOLEAN' },
  { name: 'ValueString', type: 'VARCHAR' },
  { name: 'Metadata', type: 'VARCHAR', logical: 'Metadata' },
];

const EVENT_MEASURES: readonly MeasureDef[] = [
  { name: 'Text', type: 'VARCHAR', logical: 'Text' },
  { name: 'State', type: 'VARCHAR', logical: 'State' },
  { name: 'Reason', type: 'VARCHAR', logical: 'Reason' },
  { name: 'Severity', type: 'VARCHAR', logical: 'Severity' },
  { name: 'Active', type: 'BOOLEAN', logical: 'Active' },
  { name: 'Acknowledged', type: 'BOOLEAN', logical: 'Acknowledged' },
];

export const TIMESTREAM_MEASURES: Readonly<Record<TableName, readonly MeasureDef[]>> = {
  States: COMMON_MEASURES,
  Events: [...COMMON_MEASURES, ...EVENT_MEASURES],
};

/** How a logical column is read back: `time`, a dimension (coalesce to ''), or a measure. */
export type ColumnSource =
  | { readonly kind: 'time' }
  | { readonly kind: 'dimension' }
  | { readonly kind: 'measure'; readonly type: TimestreamMeasureType };

export function columnSource(table: TableName, column: string): ColumnSource {
  if (column === 'Timestamp') return { kind: 'time' };
  if (TIMESTREAM_DIMENSIONS.includes(column)) return { kind: 'dimension' };
  const measure = TIMESTREAM_MEASURES[table].find((m) => m.logical === column);
  if (!measure) throw new Error(`no Timestream mapping for ${table}.${column}`);
  return { kind: 'measure', type: measure.type };
}

/** A Timestream record as plain data, shaped like the SDK's _Record (the adapter passes it through). */
export interface TimestreamRecordParts {
  readonly Time: string;
  readonly TimeUnit: 'MICROSECONDS';
  readonly MeasureName: string;
  readonly MeasureValueType: 'MULTI';
  readonly Dimensions: readonly {
    readonly Name: string;
    readonly Value: string;
    readonly DimensionValueType: 'VARCHAR';
  }[];
  readonly MeasureValues: readonly {
    readonly Name: string;
    readonly Value: string;
    readonly Type: TimestreamMeasureType;
  }[];
}

const micros = (iso: string): string => {
  const ms = Date.parse(iso);
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const subMs = (fraction + '000000').slice(3, 6);
  return (BigInt(ms) * 1000n + BigInt(subMs)).toString();
};

/** Builds the record for one row; omits empty dimensions and null measures (Timestream rejects them). */
export function toTimestreamRecord(
  table: TableName,
  customerId: string,
  valueIndex: number,
  row: TelemetryRow | EventRow,
): TimestreamRecordParts {
  const values = row as unknown as Record<string, unknown>;
  const dimensions = TIMESTREAM_DIMENSIONS.map((name) => ({
    Name: name,
    Value: name === 'CustomerId' ? customerId : name === 'ValueIndex' ? String(valueIndex) : String(values[name] ?? ''),
    DimensionValueType: 'VARCHAR' as const,
  })).filter((d) => d.Value !== '');
  const measures: { Name: string; Value: string; Type: TimestreamMeasureType }[] = [];
  for (const m of TIMESTREAM_MEASURES[table]) {
    const v = m.logical ? values[m.logical] : companion(m.name, row.Value);
    if (v === null || v === undefined || v === '') continue;
    const logicalType = m.logical ? TABLES[table].find((c) => c.name === m.logical)?.type : undefined;
    let text: string;
    if (m.type === 'TIMESTAMP') text = micros(String(v));
    else if (logicalType === 'dynamic') text = JSON.stringify(v);
    else text = String(v);
    measures.push({ Name: m.name, Value: text, Type: m.type });
  }
  return {
    Time: micros(row.Timestamp),
    TimeUnit: 'MICROSECONDS',
    MeasureName: TIMESTREAM_MEASURE_NAME,
    MeasureValueType: 'MULTI',
    Dimensions: dimensions,
    MeasureValues: measures,
  };
}

/** Typed companions of Value: a number as ValueDouble, a bool as ValueBool, a string as ValueString. */
function companion(name: string, value: unknown): unknown {
  if (name === 'ValueDouble') return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  if (name === 'ValueBool') return typeof value === 'boolean' ? value : undefined;
  if (name === 'ValueString') return typeof value === 'string' ? value : undefined;
  return undefined;
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const MEASURE_NAME_BYTES = utf8Bytes(TIMESTREAM_MEASURE_NAME);

/** Per table, what sizing a record needs of each measure, worked out once. */
const SIZE_PLAN: Readonly<
  Record<
    TableName,
    readonly {
      readonly name: string;
      readonly nameBytes: number;
      readonly logical?: string;
      readonly type: TimestreamMeasureType;
      readonly dynamic: boolean;
    }[]
  >
> = {
  States: sizePlan('States'),
  Events: sizePlan('Events'),
};
const DIMENSION_NAME_BYTES: readonly number[] = TIMESTREAM_DIMENSIONS.map(utf8Bytes);

function sizePlan(table: TableName) {
  return TIMESTREAM_MEASURES[table].map((m) => ({
    name: m.name,
    nameBytes: utf8Bytes(m.name),
    ...(m.logical ? { logical: m.logical } : {}),
    type: m.type,
    dynamic: m.logical !== undefined && TABLES[table].find((c) => c.name === m.logical)?.type === 'dynamic',
  }));
}

/** JSON text of a dynamic value; objects shared by many rows are converted once (`json`). */
function jsonOf(value: unknown, json: WeakMap<object, string>): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  let text = json.get(value);
  if (text === undefined) json.set(value, (text = JSON.stringify(value)));
  return text;
}

/**
 * The size Timestream meters for the record toTimestreamRecord builds (8 bytes of time, the UTF-8
 * bytes of the measure name, of every dimension's name and value, of every measure's name, and per
 * value 1 byte for BOOLEAN, 8 for BIGINT, DOUBLE and TIMESTAMP, its UTF-8 bytes for VARCHAR),
 * computed without building the record. With `upperBound`, every UTF-16 unit counts 3 bytes (the
 * most one takes in UTF-8) and no byte is counted: cheaper, and exact enough to show that a record
 * is far below a limit. `json` caches the JSON of objects shared by many rows (a message's and an
 * item's metadata); pass one map for all rows of a write.
 */
export function timestreamRecordBytes(
  table: TableName,
  customerId: string,
  valueIndex: number,
  row: TelemetryRow | EventRow,
  json: WeakMap<object, string> = new WeakMap(),
  upperBound = false,
): number {
  const size = upperBound ? (text: string) => 3 * text.length : utf8Bytes;
  const values = row as unknown as Record<string, unknown>;
  let bytes = 8 + MEASURE_NAME_BYTES;
  for (let i = 0; i < TIMESTREAM_DIMENSIONS.length; i++) {
    const name = TIMESTREAM_DIMENSIONS[i]!;
    const value =
      name === 'CustomerId' ? customerId : name === 'ValueIndex' ? String(valueIndex) : String(values[name] ?? '');
    if (value !== '') bytes += DIMENSION_NAME_BYTES[i]! + size(value);
  }
  for (const m of SIZE_PLAN[table]) {
    const v = m.logical ? values[m.logical] : companion(m.name, row.Value);
    if (v === null || v === undefined || v === '') continue;
    bytes += m.nameBytes;
    if (m.type === 'BOOLEAN') bytes += 1;
    else if (m.type !== 'VARCHAR') bytes += 8;
    else bytes += size(m.dynamic ? jsonOf(v, json) : String(v));
  }
  return bytes;
}
