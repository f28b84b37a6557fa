// The buffered entry point: an SQS queue between the IoT rule and the function (the rule's SQS
// action with the same SELECT). Each record runs through the same core; records whose processing
// threw (a dependency down) are reported as batch item failures so that only they are retried.
import type { IngestDeps, IngestOutcome } from './ingest';
import { ingestRuleEvent } from './ingest';

export interface QueueRecord {
  readonly messageId: string;
  readonly body: string;
}

export interface BatchResult {
  readonly batchItemFailures: { readonly itemIdentifier: string }[];
  readonly outcomes: readonly IngestOutcome[];
}

export async function ingestQueueRecords(records: readonly QueueRecord[], deps: IngestDeps): Promise<BatchResult> {
  const failures: { itemIdentifier: string }[] = [];
  const outcomes: IngestOutcome[] = [];
  for (const record of records) {
    let event: unknown;
    try {
      event = JSON.parse(record.body);
    } catch {
      // The rule always sends JSON; a body that is not JSON still reaches the dead letter below.
      event = { payload: Buffer.from(record.body).toString('base64') };
    }
    try {
      outcomes.push(await ingestRuleEvent(event, deps));
    } catch (error) {
      deps.log('record failed, will be retried', { sqsMessageId: record.messageId, error: (error as Error).message });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures, outcomes };
}
