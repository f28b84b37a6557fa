// Public TypeScript shapes of GDM release-01 messages, as validation returns them (defaults applied).
// schemas.ts proves at compile time that the zod schemas' output fits these types.
import type { Stage } from './rules';

/** A value item's value: string, integer, number, boolean, array or null (spec, value item). */
export type GdmValue = string | number | boolean | null | readonly unknown[];

/** Free-form metadata object (message or data item). */
export type GdmMetadata = Readonly<Record<string, unknown>>;

export interface ValueItem {
  readonly value: GdmValue;
  readonly deviceTimestamp?: string | null;
}

export interface DataItem {
  readonly name: string;
  readonly metadata?: GdmMetadata;
  readonly values: readonly ValueItem[];
}

export interface CloudDataItem extends DataItem {
  readonly nameId: string;
}

export interface BaseMessage {
  readonly deviceId?: string;
  readonly messageId: string;
  readonly messageType: string;
  readonly messageVersion: string;
  readonly metadata?: GdmMetadata;
  readonly data?: readonly DataItem[];
}

export interface EdgeMessage extends BaseMessage {
  readonly deviceId: string;
  readonly agentTimestamp: string;
}

export interface CloudMessage extends EdgeMessage {
  readonly data?: readonly CloudDataItem[];
  readonly uid: string;
  readonly agentId: string;
  readonly ingestionId: string;
  readonly ingestionTimestamp: string;
}

export interface MessageByStage {
  readonly base: BaseMessage;
  readonly edge: EdgeMessage;
  readonly cloud: CloudMessage;
}

export type GdmMessage<S extends Stage = Stage> = MessageByStage[S];
