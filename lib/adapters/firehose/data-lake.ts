// Deployed data lake: Amazon Data Firehose PutRecordBatch (at most 500 records / 4 MiB a call);
// entries the service failed are sent again with backoff; if some still fail, the call throws so
// that the invocation is retried (the ingest ledger lets the retry through).
import { FirehoseClient, PutRecordBatchCommand, type _Record } from '@aws-sdk/client-firehose';
import { lakeLine } from '../../ingest/lake-line';
import type { DataLake, LakeRecord } from '../../ingest/ports';
import { DEFAULT_RETRY, backoffMs, type RetryPolicy } from '../retry';

export const MAX_RECORDS_PER_BATCH = 500;

/** One NDJSON line per message; the stream's dynamic partitioning reads the partition keys. */
export function lakeEntry(record: LakeRecord): _Record {
  return { Data: Buffer.from(`${lakeLine(record)}\n`) };
}

export function firehoseDataLake(stream: string, client: FirehoseClient = new FirehoseClient({}), retry: RetryPolicy = DEFAULT_RETRY): DataLake {
  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return {
    async put(records) {
      for (let i = 0; i < records.length; i += MAX_RECORDS_PER_BATCH) {
        let pending = records.slice(i, i + MAX_RECORDS_PER_BATCH).map(lakeEntry);
        for (let attempt = 0; pending.length > 0; attempt++) {
          if (attempt >= retry.maxAttempts) throw new Error(`Firehose refused ${pending.length} record(s) after ${retry.maxAttempts} attempts`);
          if (attempt > 0) await sleep(backoffMs(retry, attempt - 1));
          const out = await client.send(new PutRecordBatchCommand({ DeliveryStreamName: stream, Records: pending }));
          if (!out.FailedPutCount) break;
          pending = pending.filter((_, index) => out.RequestResponses?.[index]?.ErrorCode);
        }
      }
    },
  };
}
