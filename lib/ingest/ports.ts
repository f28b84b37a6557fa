// Ports of the ingest path (ARCHITECTURE.md): where refused messages and every cloud message go.
// Adapters: local files under .data/ (lib/adapters/files), S3 and Firehose when deployed.

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
  | 'RULE_SQL_FAILED';

export interface DeadLetterEntry {
  readonly reason: DeadLetterReason;
  /** A person-readable sentence and, where there are several problems, each of them. */
  readonly message: string;
  readonly details: readonly unknown[];
  /** ISO 8601 time the message was refused. */
  readonly time: string;
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
