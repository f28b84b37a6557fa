// Target of the IoT topic rule (infra/resources/iot.yml). Deployed, IoT Core invokes it with one
// rule event per message; a dependency failure throws, so that Lambda retries the invocation.
// The local broker delivers its journal in batches in the SQS shape and gets the failed items back.
import { ingestDeps } from '../../lib/wiring/ingest';
import { ingestQueueRecords, isRecordBatch, type BatchResult } from '../../lib/ingest/batch';
import { ingestRuleEvent, type IngestOutcome } from '../../lib/ingest/ingest';

export const handler = async (event: unknown): Promise<IngestOutcome | BatchResult> => {
  const deps = await ingestDeps();
  return isRecordBatch(event) ? ingestQueueRecords(event.Records, deps) : ingestRuleEvent(event, deps);
};
