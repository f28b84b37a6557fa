// Batches of rule events in the SQS event shape: the SQS entry point (the IoT rule's `sqs`
// action with the same SELECT) and the local broker, which delivers its journal in batches.
// Each record's body is one rule event; the batch runs through the core together, and the
// records that hit an unavailable dependency are reported as batch item failures, so that only
// they are retried.
import { z } from 'zod';
import type { BatchOutcome, IngestDeps } from './ingest';
import { ingestBatch } from './ingest';

export interface QueueRecord {
  readonly messageId: string;
  readonly body: string;
}

export interface BatchResult {
  readonly batchItemFailures: { readonly itemIdentifier: string }[];
  readonly outcomes: readonly BatchOutcome[];
}

const recordBatchSchema = z.object({ Records: z.array(z.object({ messageId: z.string(), body: z.string() })) });

/** An event in the SQS batch shape (as opposed to a single IoT rule event). */
export function isRecordBatch(event: unknown): event is { Records: QueueRecord[] } {
  return recordBatchSchema.safeParse(event).success;
}

export async function ingestQueueRecords(records: readonly QueueRecord[], deps: IngestDeps): Promise<BatchResult> {
  const events = records.map((record) => {
    try {
      return JSON.parse(record.body) as unknown;
    } catch {
      // The rule always sends JSON; a body that is not JSON still reaches the dead letter.
      return { payload: Buffer.from(record.body).toString('base64') };
    }
  });
  const outcomes = await ingestBatch(events, deps);
  const failures = records.flatMap((record, i) => {
    const outcome = outcomes[i];
    if (outcome?.status !== 'failed') return [];
    deps.log('record failed, will be retried', { itemIdentifier: record.messageId, error: outcome.error });
    return [{ itemIdentifier: record.messageId }];
  });
  return { batchItemFailures: failures, outcomes };
}
