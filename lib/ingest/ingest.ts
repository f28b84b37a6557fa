// The ingest core: decode what the IoT rule delivers, refuse what cannot be read, and hand the
// message on. Every message ends either stored or in the dead letter with its reason.
import type { DeadLetter, DeadLetterEntry, DeadLetterReason } from './ports';
import { ruleEventSchema } from './rule-event';

export interface IngestDeps {
  readonly deadLetter: DeadLetter;
  readonly now: () => Date;
  /** Largest payload accepted, in bytes (AWS IoT Core's own limit is 128 KiB). */
  readonly maxPayloadBytes: number;
  readonly log: (message: string, attributes: Record<string, unknown>) => void;
}

export type IngestOutcome =
  | { readonly status: 'accepted'; readonly messageId: string | undefined }
  | { readonly status: 'dead-lettered'; readonly reason: DeadLetterReason };

export async function ingestRuleEvent(event: unknown, deps: IngestDeps): Promise<IngestOutcome> {
  const parsed = ruleEventSchema.safeParse(event);
  const time = deps.now().toISOString();
  const refuse = async (reason: DeadLetterReason, message: string, payloadBase64: string, details: readonly unknown[] = []): Promise<IngestOutcome> => {
    const source = parsed.success ? { agentId: parsed.data.agentId, clientId: parsed.data.clientId } : {};
    const entry: DeadLetterEntry = { reason, message, details, time, payloadBase64, source };
    await deps.deadLetter.put([entry]);
    deps.log('message dead-lettered', { reason, detail: message, ...source });
    return { status: 'dead-lettered', reason };
  };

  if (!parsed.success) {
    return refuse('INVALID_MESSAGE', 'the rule event has no base64 payload; check the IoT rule SQL', Buffer.from(JSON.stringify(event ?? null)).toString('base64'));
  }
  const bytes = Buffer.from(parsed.data.payload, 'base64');
  if (bytes.length > deps.maxPayloadBytes) {
    return refuse('TOO_LARGE', `the payload has ${bytes.length} bytes; at most ${deps.maxPayloadBytes} are accepted`, parsed.data.payload);
  }
  let message: unknown;
  try {
    message = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return refuse('NOT_JSON', `the payload is not JSON: ${(error as Error).message}`, parsed.data.payload);
  }
  const messageId = typeof message === 'object' && message !== null ? (message as { messageId?: unknown }).messageId : undefined;
  deps.log('message received', { agentId: parsed.data.agentId, messageId });
  return { status: 'accepted', messageId: typeof messageId === 'string' ? messageId : undefined };
}
