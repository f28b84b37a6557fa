// Stage transitions (spec, "GDM message stages") as pure functions with an injected clock.
// Inputs are messages that validateMessage accepted at the previous stage. Outputs are new objects
// with fields in the spec's order; nested metadata and value arrays are shared with the input, not
// copied, so treat both as immutable (the public types are readonly).
import { createHash } from 'node:crypto';
import type { GdmErrorCode } from './issues';
import { DEVICE_ID_PATTERN, INGESTION_ID_PATTERN, UUID_PATTERN } from './rules';
import type { BaseMessage, CloudDataItem, CloudMessage, DataItem, EdgeMessage } from './types';

/** The injected clock: enrichment never reads the system time itself. */
export type Clock = () => Date;

export interface ToEdgeOptions {
  readonly now: Clock;
  /** Used when the base message has no deviceId; the message's own deviceId wins. */
  readonly deviceId?: string;
}

export interface ToCloudOptions {
  readonly now: Clock;
  /** The agent's identity in the message hub (lowercase UUID), e.g. the MQTT client id. */
  readonly agentId: string;
  /** Name of the cloud message hub. */
  readonly ingestionId: string;
}

/** Thrown when enrichment lacks what the next stage requires; `path` is a JSON Pointer. */
export class GdmEnrichmentError extends Error {
  constructor(
    readonly code: GdmErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'GdmEnrichmentError';
  }
}

/** lowercase(agentId) + '_' + lowercase(deviceId). */
export function uidOf(agentId: string, deviceId: string): string {
  return `${agentId.toLowerCase()}_${deviceId.toLowerCase()}`;
}

/** Lowercase hex SHA-256 of agentId + '_' + deviceId + '_' + name (UTF-8, no case folding). */
export function nameIdOf(agentId: string, deviceId: string, name: string): string {
  return createHash('sha256').update(`${agentId}_${deviceId}_${name}`, 'utf8').digest('hex');
}

/**
 * Base -> edge: sets agentTimestamp from the clock and makes deviceId mandatory.
 * @throws GdmEnrichmentError GDM_REQUIRED when neither the message nor options carry a deviceId,
 *   GDM_DEVICE_ID_FORMAT when options.deviceId is malformed.
 */
export function toEdge(base: BaseMessage, options: ToEdgeOptions): EdgeMessage {
  const deviceId = base.deviceId ?? options.deviceId;
  if (deviceId === undefined) {
    throw new GdmEnrichmentError(
      'GDM_REQUIRED',
      '/deviceId',
      'an edge message needs a deviceId: the base message has none, so pass one (toEdge option deviceId, or gdm enrich --device-id).',
    );
  }
  if (!DEVICE_ID_PATTERN.test(deviceId)) {
    throw new GdmEnrichmentError(
      'GDM_DEVICE_ID_FORMAT',
      '/deviceId',
      `deviceId ${JSON.stringify(deviceId)} has a character other than letters, digits, _ - . # =.`,
    );
  }
  const { metadata, data } = base;
  return {
    deviceId,
    agentTimestamp: options.now().toISOString(),
    messageId: base.messageId,
    messageType: base.messageType,
    messageVersion: base.messageVersion,
    ...(metadata !== undefined && { metadata }),
    ...(data !== undefined && { data }),
  };
}

/**
 * Edge -> cloud: sets agentId, ingestionId, ingestionTimestamp, uid and a nameId per data item.
 * @throws GdmEnrichmentError GDM_AGENT_ID_FORMAT / GDM_INGESTION_ID_FORMAT for malformed options, so
 *   a valid edge message always yields a valid cloud message.
 */
export function toCloud(edge: EdgeMessage, options: ToCloudOptions): CloudMessage {
  const { agentId, ingestionId } = options;
  if (!UUID_PATTERN.test(agentId)) {
    throw new GdmEnrichmentError(
      'GDM_AGENT_ID_FORMAT',
      '/agentId',
      `agentId ${JSON.stringify(agentId)} is not a lowercase hexadecimal UUID (8-4-4-4-12).`,
    );
  }
  if (!INGESTION_ID_PATTERN.test(ingestionId)) {
    throw new GdmEnrichmentError(
      'GDM_INGESTION_ID_FORMAT',
      '/ingestionId',
      `ingestionId ${JSON.stringify(ingestionId)} must be letters, digits, _ - . only.`,
    );
  }
  const { deviceId, metadata, data } = edge;
  return {
    deviceId,
    agentTimestamp: edge.agentTimestamp,
    messageId: edge.messageId,
    messageType: edge.messageType,
    messageVersion: edge.messageVersion,
    ...(metadata !== undefined && { metadata }),
    ...(data !== undefined && { data: data.map((item) => cloudDataItem(item, agentId, deviceId)) }),
    uid: uidOf(agentId, deviceId),
    agentId,
    ingestionId,
    ingestionTimestamp: options.now().toISOString(),
  };
}

function cloudDataItem(item: DataItem, agentId: string, deviceId: string): CloudDataItem {
  const { name, metadata, values } = item;
  return { name, nameId: nameIdOf(agentId, deviceId, name), ...(metadata !== undefined && { metadata }), values };
}
