// Maps a cloud message to rows of the logical tables (ARCHITECTURE.md): one row per value item.
// Timestamp = the value's deviceTimestamp, else agentTimestamp, else ingestionTimestamp.
import type { CloudMessage, GdmMetadata } from '../gdm';
import { kindOf } from '../gdm';
import type { EventRow, TelemetryRow } from '../telemetry/tables';
import { toUtcIso } from '../telemetry/time';

export interface MessageRows {
  readonly states: readonly TelemetryRow[];
  readonly events: readonly EventRow[];
}

const text = (metadata: GdmMetadata | undefined, key: string): string => {
  const value = metadata?.[key];
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

const flag = (metadata: GdmMetadata | undefined, key: string): boolean | null => {
  const value = metadata?.[key];
  return typeof value === 'boolean' ? value : null;
};

/** The plant a message names in its metadata, or '' when it names none. */
export function plantIdOf(message: { readonly metadata?: GdmMetadata }): string {
  const plantId = message.metadata?.plantId;
  return typeof plantId === 'string' ? plantId : '';
}

/** Rows of a state, alarm or event message; keep-alives have none (they go to device liveness). */
export function rowsOf(message: CloudMessage): MessageRows {
  const kind = kindOf(message.messageType);
  if (kind === 'keep-alive' || kind === undefined) return { states: [], events: [] };
  const agentTimestamp = toUtcIso(message.agentTimestamp);
  const ingestionTimestamp = toUtcIso(message.ingestionTimestamp);
  const common = {
    PlantId: plantIdOf(message),
    Uid: message.uid,
    DeviceId: message.deviceId,
    AgentId: message.agentId,
    AgentTimestamp: agentTimestamp,
    IngestionId: message.ingestionId,
    IngestionTimestamp: ingestionTimestamp,
    MessageId: message.messageId,
    MessageType: message.messageType,
    MessageVersion: message.messageVersion,
    MessageMetadata: message.metadata ?? null,
  };
  const states: TelemetryRow[] = [];
  const events: EventRow[] = [];
  for (const item of message.data ?? []) {
    const metadata = item.metadata;
    const itemColumns = {
      NameId: item.nameId,
      Name: item.name,
      Metadata: metadata ?? null,
      EquipmentId: text(metadata, 'equipmentId'),
      Unit: text(metadata, 'unit'),
    };
    for (const value of item.values) {
      const row: TelemetryRow = {
        Timestamp: value.deviceTimestamp ? toUtcIso(value.deviceTimestamp) : agentTimestamp,
        ...common,
        ...itemColumns,
        Value: value.value,
      };
      if (kind === 'state') {
        states.push(row);
      } else {
        events.push({
          ...row,
          Text: text(metadata, 'text'),
          State: text(metadata, 'state'),
          Reason: text(metadata, 'reason'),
          Severity: metadata?.severity ?? null,
          Active: flag(metadata, 'active'),
          Acknowledged: flag(metadata, 'acknowledged'),
        });
      }
    }
  }
  return { states, events };
}
