// SQS entry point of the ingest core (for a buffer between the IoT rule and the function).
import type { SQSEvent, SQSBatchResponse } from 'aws-lambda';
import { ingestDeps } from '../../lib/wiring/ingest';
import { ingestQueueRecords } from '../../lib/ingest/batch';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const { batchItemFailures } = await ingestQueueRecords(event.Records, await ingestDeps());
  return { batchItemFailures };
};
