// The dead letter as an operator sees it (docs/ingest.md "Dead letter: reading and replaying"):
// a store to list, read and mark entries replayed, and the ingest function to send them through
// again. Adapters: lib/adapters/files/dead-letter-store.ts (local), lib/adapters/s3/ (deployed),
// lib/adapters/lambda/ (the invokers).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { DeadLetterEntry, DeadLetterReason } from './ports';
import type { RuleEvent } from './rule-event';

/** Every reason code, for validating an operator's --reason (kept equal to the type by `satisfies`). */
export const DEAD_LETTER_REASONS = [
  'NOT_JSON',
  'INVALID_MESSAGE',
  'UNKNOWN_AGENT',
  'FOREIGN_PLANT',
  'AGENT_MISMATCH',
  'TOO_LARGE',
  'STORE_REJECTED',
  'RULE_ACTION_FAILED',
  'RULE_SQL_FAILED',
  'TIME_IN_FUTURE',
  'TIME_TOO_OLD',
  'RECORD_TOO_LARGE',
] as const satisfies readonly DeadLetterReason[];
// Fails to compile when ports.ts gains a reason that the list above lacks.
const everyReasonListed: Exclude<DeadLetterReason, (typeof DEAD_LETTER_REASONS)[number]> extends never ? true : never =
  true;
void everyReasonListed;

/**
 * A stable name for a refusal: the same message refused again (a retried batch, a replay of the
 * broker's journal) maps to the same dead-letter entry instead of a second one.
 */
export function deadLetterId(
  reason: DeadLetterReason,
  payloadBase64: string,
  source: Readonly<Record<string, string | undefined>>,
  receivedAt: number | undefined,
): string {
  const hash = createHash('sha256')
    .update(`${reason}\u0000${source.agentId ?? ''}\u0000${source.clientId ?? ''}\u0000${receivedAt ?? ''}\u0000`)
    .update(payloadBase64)
    .digest('hex');
  return hash.slice(0, 32);
}

/** One entry with the id its store knows it by (a path or an S3 key, opaque to callers). */
export interface StoredDeadLetter {
  readonly id: string;
  readonly entry: DeadLetterEntry;
}

export interface DeadLetterFilter {
  /** Entries refused at or after this time. */
  readonly from?: Date;
  /** Entries refused before this time. */
  readonly to?: Date;
  readonly reason?: DeadLetterReason;
}

export interface DeadLetterPage {
  /** In the store's order (by day, then time within a day). */
  readonly items: readonly StoredDeadLetter[];
  /** Ids of files or objects in the dead letter that are not a dead-letter entry of a known shape. */
  readonly unreadable: readonly string[];
  /** Pass as `after` for the next page; absent on the last page. */
  readonly next?: string;
}

/** What the ingest function answered for a replayed message. */
export interface ReplayOutcome {
  readonly status: 'stored' | 'duplicate' | 'dead-lettered';
  readonly messageId?: string;
  /** The new reason when it was dead-lettered again. */
  readonly reason?: string;
}

export interface ReplayRecord extends ReplayOutcome {
  /** ISO time of the replay. */
  readonly replayedAt: string;
}

export interface DeadLetterStore {
  /** Where it reads, for messages (a folder or s3://bucket). */
  readonly location: string;
  list(filter: DeadLetterFilter, page?: { readonly after?: string; readonly limit?: number }): Promise<DeadLetterPage>;
  /** @returns undefined when nothing is listed under this id (a wrong id, or replayed already). */
  get(id: string): Promise<StoredDeadLetter | undefined>;
  /**
   * Moves the entry out of what `list` shows, keeping it with the replay's outcome (local:
   * `<dir>/replayed/<id>`; S3: `replayed/<id>`). Safe to repeat after a crash half-way.
   */
  markReplayed(id: string, record: ReplayRecord): Promise<void>;
}

/** Sends one rule event through the ingest function and returns its answer. */
export interface IngestInvoker {
  /** Where it invokes, for messages. */
  readonly target: string;
  /** @throws AppError SERVICE_UNAVAILABLE when the function cannot be reached or failed (a dependency down). */
  invoke(event: RuleEvent): Promise<ReplayOutcome>;
}

/** The ingest function's answer (lib/ingest/ingest.ts IngestOutcome); extra fields are ignored. */
export const ingestAnswerSchema = z.object({
  status: z.enum(['stored', 'duplicate', 'dead-lettered']),
  messageId: z.string().optional(),
  reason: z.string().optional(),
});

export function matchesFilter(entry: DeadLetterEntry, filter: DeadLetterFilter): boolean {
  if (filter.reason !== undefined && entry.reason !== filter.reason) return false;
  const time = Date.parse(entry.time);
  if (filter.from !== undefined && !(time >= filter.from.getTime())) return false;
  if (filter.to !== undefined && !(time < filter.to.getTime())) return false;
  return true;
}

/** Whether a day partition (YYYY-MM-DD, UTC) can hold entries of the filter's time range. */
export function dayInRange(day: string, filter: DeadLetterFilter): boolean {
  if (filter.from !== undefined && day < filter.from.toISOString().slice(0, 10)) return false;
  if (filter.to !== undefined && day > new Date(filter.to.getTime() - 1).toISOString().slice(0, 10)) return false;
  return true;
}

/** The agent of an entry: recorded by the ingest itself, else topic segment 2 (`gdm/<agentId>/messages`). */
export function agentOf(entry: DeadLetterEntry): string | undefined {
  if (entry.source.agentId) return entry.source.agentId;
  const segment = entry.source.topic?.split('/')[1];
  return segment === undefined || segment === '' ? undefined : segment;
}

/** The IoT rule's event (rule-event.ts) that delivered the entry's message, rebuilt for a replay. */
export function ruleEventOf(entry: DeadLetterEntry): RuleEvent {
  const agentId = agentOf(entry);
  const clientId = entry.source.clientId;
  const receivedAt = Date.parse(entry.time);
  return {
    payload: entry.payloadBase64,
    ...(agentId !== undefined ? { agentId } : {}),
    ...(clientId !== undefined && clientId !== '' ? { clientId } : {}),
    ...(Number.isFinite(receivedAt) ? { receivedAt } : {}),
  };
}

export type DecodedPayload =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'binary'; readonly bytes: number };

// Control characters other than tab, line feed and carriage return mark a payload as binary.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The payload as JSON when it parses, as text when it is printable UTF-8, else only its size. */
export function decodePayload(payloadBase64: string): DecodedPayload {
  const bytes = Buffer.from(payloadBase64, 'base64');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { kind: 'binary', bytes: bytes.length };
  }
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return CONTROL.test(text) ? { kind: 'binary', bytes: bytes.length } : { kind: 'text', value: text };
  }
}

/** The message id when the ingest recorded it or the payload names one. */
export function messageIdOf(entry: DeadLetterEntry): string | undefined {
  if (entry.source.messageId) return entry.source.messageId;
  const payload = decodePayload(entry.payloadBase64);
  if (payload.kind !== 'json' || payload.value === null || typeof payload.value !== 'object') return undefined;
  const id = (payload.value as { messageId?: unknown }).messageId;
  return typeof id === 'string' ? id : undefined;
}
