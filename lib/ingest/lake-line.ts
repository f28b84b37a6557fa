// One line of the data lake (NDJSON), the same locally and deployed: the partition keys beside
// the untouched cloud message, so Firehose's dynamic partitioning can read them with JQ
// (.customer, .plant, .date) and the message stays a valid GDM cloud message.
import type { LakeRecord } from './ports';

export const NO_PLANT = '_none';

export function lakeLine(record: LakeRecord): string {
  return JSON.stringify({
    customer: record.customerId,
    plant: record.plantId || NO_PLANT,
    date: record.date,
    message: record.message,
  });
}
