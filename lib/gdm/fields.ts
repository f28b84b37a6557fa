// Per-stage presence of every field, copied from the spec's Base/Edge/Cloud columns. The zod schemas
// and the hot-path validator both read this table, so a field's presence is written down once.
import type { Stage } from './rules';

/** `absent` means the field must not appear at that stage: it is set by a later stage. */
export type Presence = 'required' | 'optional' | 'absent';
export type PresenceByStage = Readonly<Record<Stage, Presence>>;

const always: PresenceByStage = { base: 'required', edge: 'required', cloud: 'required' };
const optional: PresenceByStage = { base: 'optional', edge: 'optional', cloud: 'optional' };
const fromEdge: PresenceByStage = { base: 'absent', edge: 'required', cloud: 'required' };
const cloudOnly: PresenceByStage = { base: 'absent', edge: 'absent', cloud: 'required' };

/** Message fields in the spec's order (enrichment writes them in this order too). */
export const MESSAGE_FIELDS = {
  deviceId: { base: 'optional', edge: 'required', cloud: 'required' },
  agentTimestamp: fromEdge,
  messageId: always,
  messageType: always,
  messageVersion: always,
  metadata: optional,
  data: optional,
  uid: cloudOnly,
  agentId: cloudOnly,
  ingestionId: cloudOnly,
  ingestionTimestamp: cloudOnly,
} as const satisfies Readonly<Record<string, PresenceByStage>>;

export const DATA_ITEM_FIELDS = {
  name: always,
  nameId: cloudOnly,
  metadata: optional,
  values: always,
} as const satisfies Readonly<Record<string, PresenceByStage>>;

export const VALUE_ITEM_FIELDS = {
  value: always,
  deviceTimestamp: optional,
} as const satisfies Readonly<Record<string, PresenceByStage>>;

export type MessageField = keyof typeof MESSAGE_FIELDS;
export type DataItemField = keyof typeof DATA_ITEM_FIELDS;
export type ValueItemField = keyof typeof VALUE_ITEM_FIELDS;

/** Which stage sets a field that is absent earlier: used to word "not allowed at this stage" errors. */
export const SET_BY: Readonly<Record<string, string>> = {
  agentTimestamp: 'the gateway (edge stage)',
  uid: 'the cloud platform (cloud stage)',
  agentId: 'the cloud platform (cloud stage)',
  ingestionId: 'the cloud platform (cloud stage)',
  ingestionTimestamp: 'the cloud platform (cloud stage)',
  nameId: 'the cloud platform (cloud stage)',
};
