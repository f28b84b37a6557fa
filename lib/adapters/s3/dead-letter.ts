// Deployed dead letter: one S3 object per refused message, dead-letter/date=YYYY-MM-DD/...
// The SDK retries throttling and server errors (sdk-config.ts); a put that still fails throws.
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { DeadLetter, DeadLetterEntry } from '../../ingest/ports';
import { sdkClientConfig } from '../sdk-config';

/** The entry's stable id names the object: the same refusal written twice overwrites itself. */
export function deadLetterKey(entry: DeadLetterEntry): string {
  const at = entry.receivedAt ?? entry.time;
  return `dead-letter/date=${at.slice(0, 10)}/${at.replace(/[:.]/g, '-')}-${entry.reason}-${entry.id}.json`;
}

export function s3DeadLetter(bucket: string, client: S3Client = new S3Client(sdkClientConfig({}))): DeadLetter {
  return {
    async put(entries) {
      for (const entry of entries) {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: deadLetterKey(entry),
            Body: JSON.stringify(entry),
            ContentType: 'application/json',
          }),
        );
      }
    },
  };
}
