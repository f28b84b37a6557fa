// Deployed data lake: Amazon Data Firehose PutRecordBatch (at most 500 records / 4 MiB a call).
// The SDK retries a failed call; entries a successful call reports as failed (FailedPutCount) are
// sent again by sendUntilDone, and if some still fail the call throws so that the invocation is
// retried (the ingest ledger lets the retry through).
import { FirehoseClient, PutRecordBatchCommand, type _Record } from '@aws-sdk/client-firehose';
import { lakeLine } from '../../ingest/lake-line';
import type { DataLake, LakeRecord } from '../../ingest/ports';
import { chunks, DEFAULT_ROUNDS, sendUntilDone, type RoundPolicy } from '../partial-batch';
import { sdkClientConfig } from '../sdk-config';

export const MAX_RECORDS_PER_BATCH = 500;

/** One NDJSON line per message; the stream's dynamic partitioning reads the partition keys. */
export function lakeEntry(record: LakeRecord): _Record {
  return { Data: Buffer.from(`${lakeLine(record)}\n`) };
}

export function firehoseDataLake(
  stream: string,
  client: FirehoseClient = new FirehoseClient(sdkClientConfig({})),
  rounds: RoundPolicy = DEFAULT_ROUNDS,
): DataLake {
  const sendBatch = async (entries: readonly _Record[]): Promise<_Record[]> => {
    const out = await client.send(new PutRecordBatchCommand({ DeliveryStreamName: stream, Records: [...entries] }));
    if (!out.FailedPutCount) return [];
    // RequestResponses is in request order; an entry with an ErrorCode was not written.
    return entries.filter((_, index) => out.RequestResponses?.[index]?.ErrorCode);
  };
  return {
    async put(records) {
      for (const batch of chunks(records, MAX_RECORDS_PER_BATCH))
        await sendUntilDone(`Firehose stream ${stream}`, batch.map(lakeEntry), sendBatch, rounds);
    },
  };
}
