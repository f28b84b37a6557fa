// Ports of the ingest path (ARCHITECTURE.md): where refused messages and every cloud message go.
// Adapters: local files under .data/ (lib/adapters/files), S3 and Firehose when deployed.
import type { EventRow, TelemetryRow } from '../telemetry/tables';

/** Why a message was refused; stable codes that operators filter on. */
export type DeadLetterReason =
  | 'NOT_JSON'
  | 'INVALID_MESSAGE'
  | 'UNKNOWN_AGENT'
  | 'FOREIGN_PLANT'
  | 'AGENT_MISMATCH'
  | 'TOO_LARGE'
  | 'STORE_REJECTED'
  | 'RULE_ACTION_FAILED'
  | 'RULE_SQL_FAILED'
  // The deployed store's acceptance rules, applied locally too (lib/telemetry/store-rules.ts).
  | 'TIME_IN_FUTURE'
  | 'TIME_TOO_OLD'
  | 'RECORD_TOO_LARGE';

export interface DeadLetterEntry {
  /**
   * Stable for the same message refused for the same reason (lib/ingest/ingest.ts deadLetterId):
   * writing an entry whose id is already there changes nothing, so a retried batch or a replayed
   * journal never dead-letters a message twice.
   */
  readonly id: string;
  readonly reason: DeadLetterReason;
  /** A person-readable sentence and, where there are several problems, each of them. */
  readonly message: string;
  readonly details: readonly unknown[];
  /** ISO 8601 time the message was refused. */
  readonly time: string;
  /** ISO 8601 time the message hub received it, when known. */
  readonly receivedAt?: string;
  /** The original payload exactly as received, base64-encoded (it may not be text). */
  readonly payloadBase64: string;
  /** Where it came from: topic, client id, agent id, message id when known. */
  readonly source: Readonly<Record<string, string | undefined>>;
}

export interface DeadLetter {
  put(entries: readonly DeadLetterEntry[]): Promise<void>;
}

/** One cloud message for the data lake, with its partition keys. */
export interface LakeRecord {
  readonly customerId: string;
  readonly plantId: string;
  /** YYYY-MM-DD of the message's ingestion time (UTC). */
  readonly date: string;
  readonly message: unknown;
}

export interface DataLake {
  put(records: readonly LakeRecord[]): Promise<void>;
}

/** One message: the ingest ledger's and the store's unit of idempotency. */
export interface MessageKey {
  readonly agentId: string;
  readonly messageId: string;
}

/** Rows of one or more messages of one customer, written together. */
export interface TelemetryWrite {
  readonly customerId: string;
  readonly states: readonly TelemetryRow[];
  readonly events: readonly EventRow[];
  /**
   * Messages of this write that an earlier run may have written in part (it claimed them and did
   * not finish): their rows are replaced rather than added.
   */
  readonly replace?: readonly MessageKey[];
}

/** A row the store refused for good (a limit, a time outside the store's window). */
export interface RejectedRow {
  readonly table: 'States' | 'Events';
  readonly messageId: string;
  readonly reason: string;
}

/**
 * The telemetry store's write side. With `replace`, rows of the same messages written before are
 * replaced rather than added (Timestream does so anyway: same record, higher Version).
 */
export interface TelemetryStore {
  write(batch: TelemetryWrite): Promise<{ readonly rejected: readonly RejectedRow[] }>;
}

/** Who sent a message, and which plants belong to whom (the registry). */
export interface AgentDirectory {
  getAgent(agentId: string): Promise<{ readonly agentId: string; readonly customerId: string } | undefined>;
  getPlant(plantId: string): Promise<{ readonly plantId: string; readonly customerId: string } | undefined>;
}

export type ClaimStatus = 'new' | 'retry' | 'done';

/**
 * Remembers which messages (agent + messageId) were fully processed, so that a redelivered
 * message is recognised. A claim that was never completed (a crash half-way) can be taken again.
 * Works on batches: one round trip claims or completes many messages.
 */
export interface IngestLedger {
  /**
   * Claims each message (keys are distinct). @returns per key, in order: 'new' for a first
   * delivery, 'retry' when an earlier run claimed it without finishing (its writes may be partly
   * there), 'done' when it was processed before.
   */
  claim(keys: readonly MessageKey[], now: Date): Promise<ClaimStatus[]>;
  /** Marks the messages processed: a later claim of any of them answers 'done'. */
  complete(keys: readonly MessageKey[], now: Date): Promise<void>;
}

export interface KeepAlive {
  readonly customerId: string;
  readonly plantId: string;
  readonly uid: string;
  readonly agentId: string;
  readonly deviceId: string;
  /** When the device last said it was alive (its deviceTimestamp, else the gateway's time), UTC ISO. */
  readonly lastSeen: string;
  /** The interval the device announced, when it announced one. */
  readonly intervalMs: number | null;
}

export interface DeviceLiveness {
  record(keepAlive: KeepAlive): Promise<void>;
}
