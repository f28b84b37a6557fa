// The shapes a dead-letter file or object can have, read into one DeadLetterEntry:
// - the service's own entries (lib/ingest/ports.ts), written by the ingest and the local broker;
// - deployed, the IoT rule's error action (`{ruleName, topic, clientId, base64OriginalPayload,
//   failures}`, written when IoT Core could not invoke the function at all);
// - deployed, Lambda's on-failure record of an asynchronous invocation that failed every attempt
//   (`{timestamp, requestContext, requestPayload, responsePayload}`; requestPayload is the rule event).
// The last two become RULE_ACTION_FAILED, the reason the local broker gives the same situation.
import { z } from 'zod';
import { DEAD_LETTER_REASONS, deadLetterId } from './dead-letter';
import type { DeadLetterEntry } from './ports';
import { ruleEventSchema } from './rule-event';

const ownEntrySchema = z.object({
  id: z.string().optional(),
  reason: z.enum(DEAD_LETTER_REASONS),
  message: z.string(),
  details: z.array(z.unknown()).default([]),
  time: z.string(),
  receivedAt: z.string().optional(),
  payloadBase64: z.string(),
  source: z.record(z.string(), z.string().optional()).default({}),
});

/** The entry with its stable id (computed for shapes written by AWS, which carry none). */
function withId(entry: Omit<DeadLetterEntry, 'id'> & { readonly id?: string | undefined }): DeadLetterEntry {
  const { id, receivedAt, ...rest } = entry;
  return {
    ...rest,
    ...(receivedAt !== undefined ? { receivedAt } : {}),
    id:
      id ??
      deadLetterId(
        entry.reason,
        entry.payloadBase64,
        entry.source,
        receivedAt === undefined ? undefined : Date.parse(receivedAt),
      ),
  };
}

const ruleErrorSchema = z.object({
  ruleName: z.string().optional(),
  topic: z.string().optional(),
  clientId: z.string().optional(),
  base64OriginalPayload: z.string(),
  failures: z
    .array(
      z.object({
        failedAction: z.string().optional(),
        failedResource: z.string().optional(),
        errorMessage: z.string().optional(),
      }),
    )
    .default([]),
});

const invocationRecordSchema = z.object({
  timestamp: z.string(),
  requestContext: z.object({
    condition: z.string().optional(),
    approximateInvokeCount: z.number().optional(),
    functionArn: z.string().optional(),
  }),
  requestPayload: ruleEventSchema,
  responsePayload: z.object({ errorMessage: z.string().optional(), errorType: z.string().optional() }).nullish(),
});

/**
 * @param lastModified when the file or object was written: the time of an IoT error action,
 * whose message carries none.
 * @returns undefined for anything else (not JSON, or another shape).
 */
export function parseStoredDeadLetter(text: string, lastModified: Date): DeadLetterEntry | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const own = ownEntrySchema.safeParse(json);
  if (own.success) return withId(own.data);
  const ruleError = ruleErrorSchema.safeParse(json);
  if (ruleError.success) {
    const { ruleName, topic, clientId, base64OriginalPayload, failures } = ruleError.data;
    const errors = failures.map((f) => f.errorMessage).filter((m): m is string => m !== undefined);
    return withId({
      reason: 'RULE_ACTION_FAILED',
      message: `IoT Core could not run the rule's action: ${errors.join('; ') || 'no error message'}`,
      details: failures,
      time: lastModified.toISOString(),
      payloadBase64: base64OriginalPayload,
      source: { topic, clientId, rule: ruleName },
    });
  }
  const record = invocationRecordSchema.safeParse(json);
  if (record.success) {
    const { timestamp, requestContext, requestPayload, responsePayload } = record.data;
    const attempts = requestContext.approximateInvokeCount;
    return withId({
      reason: 'RULE_ACTION_FAILED',
      message: `the ingest function failed${attempts !== undefined ? ` ${attempts} times` : ''} (${requestContext.condition ?? 'failed'}): ${responsePayload?.errorMessage ?? 'no error message'}`,
      details: [{ ...requestContext, ...(responsePayload?.errorType ? { errorType: responsePayload.errorType } : {}) }],
      time: Number.isFinite(Date.parse(timestamp)) ? new Date(timestamp).toISOString() : lastModified.toISOString(),
      payloadBase64: requestPayload.payload,
      source: { agentId: requestPayload.agentId, clientId: requestPayload.clientId },
      ...(requestPayload.receivedAt !== undefined
        ? { receivedAt: new Date(requestPayload.receivedAt).toISOString() }
        : {}),
    });
  }
  return undefined;
}
