// The logical tables that queries see (ARCHITECTURE.md, "Logical tables seen by queries").
// Both TelemetryStore backends (DuckDB locally, Timestream deployed) expose exactly these columns.

/** KQL scalar types used by the logical tables and the query engine. */
export type KqlType =
  'string' | 'datetime' | 'dynamic' | 'long' | 'int' | 'real' | 'bool' | 'timespan' | 'guid' | 'decimal';

export interface ColumnDef {
  readonly name: string;
  readonly type: KqlType;
}

export type TableName = 'States' | 'Events';

const common: readonly ColumnDef[] = [
  { name: 'Timestamp', type: 'datetime' },
  { name: 'PlantId', type: 'string' },
  { name: 'Uid', type: 'string' },
  { name: 'DeviceId', type: 'string' },
  { name: 'AgentId', type: 'string' },
  { name: 'AgentTimestamp', type: 'datetime' },
  { name: 'IngestionId', type: 'string' },
  { name: 'IngestionTimestamp', type: 'datetime' },
  { name: 'MessageId', type: 'string' },
  { name: 'MessageType', type: 'string' },
  { name: 'MessageVersion', type: 'string' },
  { name: 'MessageMetadata', type: 'dynamic' },
  { name: 'NameId', type: 'string' },
  { name: 'Name', type: 'string' },
  { name: 'Value', type: 'dynamic' },
  { name: 'Metadata', type: 'dynamic' },
  { name: 'EquipmentId', type: 'string' },
  { name: 'Unit', type: 'string' },
];

const eventOnly: readonly ColumnDef[] = [
  { name: 'Text', type: 'string' },
  { name: 'State', type: 'string' },
  { name: 'Reason', type: 'string' },
  { name: 'Severity', type: 'dynamic' },
  { name: 'Active', type: 'bool' },
  { name: 'Acknowledged', type: 'bool' },
];

export const TABLES: Readonly<Record<TableName, readonly ColumnDef[]>> = {
  States: common,
  Events: [...common, ...eventOnly],
};

/** The names of the logical tables, in a fixed order. */
export const TABLE_NAMES: readonly TableName[] = Object.keys(TABLES) as TableName[];

export function isTableName(name: string): name is TableName {
  return Object.hasOwn(TABLES, name);
}

/** One row of States or Events as the ingest core produces it (dynamic columns hold parsed JSON). */
export interface TelemetryRow {
  readonly Timestamp: string;
  readonly PlantId: string;
  readonly Uid: string;
  readonly DeviceId: string;
  readonly AgentId: string;
  readonly AgentTimestamp: string;
  readonly IngestionId: string;
  readonly IngestionTimestamp: string;
  readonly MessageId: string;
  readonly MessageType: string;
  readonly MessageVersion: string;
  readonly MessageMetadata: unknown;
  readonly NameId: string;
  readonly Name: string;
  readonly Value: unknown;
  readonly Metadata: unknown;
  readonly EquipmentId: string;
  readonly Unit: string;
}

export interface EventRow extends TelemetryRow {
  readonly Text: string;
  readonly State: string;
  readonly Reason: string;
  readonly Severity: unknown;
  readonly Active: boolean | null;
  readonly Acknowledged: boolean | null;
}
