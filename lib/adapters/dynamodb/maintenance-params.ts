// Pure request builders of the maintenance adapter (STYLE.md: build params, send elsewhere).
import type { QueryCommandInput, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod';
import type { DateRange } from '../../maintenance/dates';
import type { AssetFilter, NewTaskWrite } from '../../maintenance/ports';
import type { Asset, JobDone, JobPlanned, StockChange, StockLevel, Task } from '../../maintenance/records';
import { assetItem, jobDoneItem, jobPlannedItem, taskItem } from './item-schemas';
import { maintenanceKeys as mk, pk, ttlOf, type ItemKey } from './keys';
import { counterDeltas, type CounterDelta, type Membership } from './maintenance-counters';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type Item = Record<string, unknown>;
type QueryInput = Omit<QueryCommandInput, 'TableName'>;

/** How one kind of record is stored: its schema, key, index entries and the counters it joins. */
export interface RecordKind<T> {
  readonly type: string;
  readonly schema: z.ZodType<T>;
  key(plantId: string, record: T): ItemKey;
  indexes(plantId: string, record: T): Item;
  memberships(record: T): Membership[];
}

export const jobDoneKind: RecordKind<JobDone> = {
  type: 'JobDone',
  schema: jobDoneItem,
  key: (plantId, job) => mk.jobDone(plantId, job.id),
  indexes: (plantId, job) => ({ GSI1PK: mk.collection(plantId, 'JOBDONE'), GSI1SK: mk.position(job.doneDate, job.id) }),
  memberships: (job) => [{ collection: 'JOBDONE', date: job.doneDate }],
};

export const jobPlannedKind: RecordKind<JobPlanned> = {
  type: 'JobPlanned',
  schema: jobPlannedItem,
  key: (plantId, job) => mk.jobPlanned(plantId, job.id),
  indexes: (plantId, job) => ({
    GSI1PK: mk.collection(plantId, 'JOBPLANNED'),
    GSI1SK: mk.position(job.dueDate, job.id),
    ...(job.asset?.tagNumber
      ? { GSI2PK: mk.plannedOfAsset(plantId, job.asset.tagNumber), GSI2SK: mk.position(job.dueDate, job.id) }
      : {}),
  }),
  memberships: (job) => [{ collection: 'JOBPLANNED', date: job.dueDate }],
};

export const taskKind: RecordKind<Task> = {
  type: 'Task',
  schema: taskItem,
  key: (plantId, task) => mk.task(plantId, task.id),
  indexes: (plantId, task) => ({
    GSI1PK: mk.collection(plantId, 'TASK'),
    GSI1SK: mk.position(task.createdDate, task.id),
    GSI2PK: mk.collection(plantId, `TASK#${task.taskStatus}`),
    GSI2SK: mk.position(task.createdDate, task.id),
  }),
  memberships: (task) => [
    { collection: 'TASK', date: task.createdDate },
    { collection: `TASK#${task.taskStatus}`, date: task.createdDate },
  ],
};

export const assetKind: RecordKind<Asset> = {
  type: 'Asset',
  schema: assetItem,
  key: (plantId, asset) => mk.asset(plantId, asset.tagNumber),
  indexes: (plantId, asset) => ({
    ...(asset.serialNumber ? { GSI1PK: mk.assetBySerial(plantId, asset.serialNumber), GSI1SK: asset.tagNumber } : {}),
    ...(asset.externalReference
      ? { GSI2PK: mk.assetByReference(plantId, asset.externalReference), GSI2SK: asset.tagNumber }
      : {}),
  }),
  memberships: () => [{ collection: 'ASSET' }],
};

/** The stored item: record, keys, type and a revision that guards read-modify-write. */
export function recordItem<T extends object>(kind: RecordKind<T>, plantId: string, record: T, rev: number): Item {
  return { ...record, ...kind.key(plantId, record), ...kind.indexes(plantId, record), Type: kind.type, Rev: rev };
}

/** Put of a record that must still be as read: absent (rev 0) or at revision `rev`. */
export function putRecord(table: string, item: Item, previousRev: number): TransactItem {
  return previousRev === 0
    ? { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } }
    : {
        Put: {
          TableName: table,
          Item: item,
          ConditionExpression: 'Rev = :rev',
          ExpressionAttributeValues: { ':rev': previousRev },
        },
      };
}

/** A record as it is stored now: its revision (0 when absent). */
export interface StoredRecord<T> {
  readonly record: T;
  readonly rev: number;
}

/** The put of one record over what is stored, and the counter changes it makes. */
export function recordWrite<T extends object>(
  table: string,
  kind: RecordKind<T>,
  plantId: string,
  record: T,
  stored: StoredRecord<T> | undefined,
): { put: TransactItem; deltas: Map<string, CounterDelta> } {
  const previousRev = stored?.rev ?? 0;
  return {
    put: putRecord(table, recordItem(kind, plantId, record, previousRev + 1), previousRev),
    deltas: counterDeltas(stored ? kind.memberships(stored.record) : [], kind.memberships(record)),
  };
}

/** Puts of records and the updates of their counters, all or none (at most 100 items). */
export function recordsTransaction(
  table: string,
  plantId: string,
  puts: readonly TransactItem[],
  deltas: readonly CounterDelta[],
): TransactWriteCommandInput {
  return { TransactItems: [...puts, ...deltas.map((d) => counterUpdate(table, plantId, d))] };
}

export function counterUpdate(table: string, plantId: string, delta: CounterDelta): TransactItem {
  const key =
    delta.level === 'T'
      ? mk.total(plantId, delta.collection)
      : delta.level === 'D'
        ? mk.dayCounter(plantId, delta.collection, delta.period)
        : mk.monthCounter(plantId, delta.collection, delta.period);
  return {
    Update: {
      TableName: table,
      Key: key,
      UpdateExpression: 'ADD n :d SET #type = :type',
      ExpressionAttributeNames: { '#type': 'Type' },
      ExpressionAttributeValues: { ':d': delta.delta, ':type': 'Counter' },
    },
  };
}

/** Counter items of one collection between two sort-key periods, inclusive. */
export function counterQuery(
  plantId: string,
  collection: string,
  level: 'D' | 'M',
  from: string,
  to: string,
): Omit<QueryCommandInput, 'TableName'> {
  const sk = level === 'D' ? mk.dayCounterSk : mk.monthCounterSk;
  return {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk.plant(plantId), ':from': sk(collection, from), ':to': sk(collection, to) },
    ProjectionExpression: 'SK, n',
  };
}

/** Records of a date-ordered collection from `fromDate` up to `toDate`, both inclusive. */
export function collectionQuery(
  index: 'GSI1' | 'GSI2',
  partition: string,
  fromDate: string,
  toDate: string,
): Omit<QueryCommandInput, 'TableName'> {
  const pkName = `${index}PK`;
  const skName = `${index}SK`;
  return {
    IndexName: index,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
    ExpressionAttributeValues: { ':pk': partition, ':from': `${fromDate}#`, ':to': `${toDate}#\uffff` },
  };
}

/** A plant's assets in tag-number order (asset registers are small: docs/dynamodb.md). */
export function assetsQuery(plantId: string): QueryInput {
  return {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': pk.plant(plantId), ':prefix': mk.assetPrefix },
  };
}

/** The assets with a serial number (GSI1) or an external reference (GSI2). */
export function assetsBy(plantId: string, by: 'serialNumber' | 'externalReference', value: string): QueryInput {
  return by === 'serialNumber'
    ? {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': mk.assetBySerial(plantId, value) },
      }
    : {
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': mk.assetByReference(plantId, value) },
      };
}

/** One asset's planned jobs in a date range, kept only where the job's asset still matches the filter. */
export function plannedOfAssetQuery(
  plantId: string,
  tagNumber: string,
  range: DateRange,
  filter: AssetFilter,
): QueryInput {
  const input = collectionQuery('GSI2', mk.plannedOfAsset(plantId, tagNumber), range.start, range.end);
  const conditions: string[] = [];
  const values: Record<string, unknown> = {};
  if (filter.serialNumber !== undefined) {
    conditions.push('asset.serialNumber = :serial');
    values[':serial'] = filter.serialNumber;
  }
  if (filter.externalReference !== undefined) {
    conditions.push('asset.externalReference = :ref');
    values[':ref'] = filter.externalReference;
  }
  return conditions.length === 0
    ? input
    : {
        ...input,
        FilterExpression: conditions.join(' AND '),
        ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...values },
      };
}

/** A part's stock changes, oldest first, read consistently (just after a change). */
export function stockHistoryQuery(plantId: string, partId: string): QueryInput {
  return {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': pk.plant(plantId), ':prefix': mk.stockHistoryPrefix(partId) },
    ConsistentRead: true,
  };
}

export function newTaskTransaction(
  table: string,
  plantId: string,
  write: NewTaskWrite,
  deltas: readonly CounterDelta[],
  nowSeconds: number,
): TransactWriteCommandInput {
  const items: TransactItem[] = [
    putRecord(table, recordItem(taskKind, plantId, write.task, 1), 0),
    ...deltas.map((d) => counterUpdate(table, plantId, d)),
  ];
  if (write.idempotency) {
    const { callerId, key, requestHash, expiresAt } = write.idempotency;
    items.push({
      Put: {
        TableName: table,
        Item: {
          ...mk.idempotency(plantId, callerId, key),
          Type: 'Idempotency',
          requestHash,
          taskId: write.task.id,
          createdAt: new Date(nowSeconds * 1000).toISOString(),
          ExpiresAt: ttlOf(expiresAt),
        },
        // TTL deletes late: an expired record counts as absent.
        ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt < :now',
        ExpressionAttributeValues: { ':now': nowSeconds },
      },
    });
  }
  return { TransactItems: items };
}

export function stockLevelTransaction(
  table: string,
  level: StockLevel,
  change: StockChange,
  expectedVersion: number,
): TransactWriteCommandInput {
  const levelItem = { ...level, ...mk.stockLevel(level.plantId, level.partId), Type: 'StockLevel' };
  const changeItem = {
    ...change,
    ...mk.stockChange(change.plantId, change.partId, change.version),
    Type: 'StockChange',
  };
  return {
    TransactItems: [
      expectedVersion === 0
        ? { Put: { TableName: table, Item: levelItem, ConditionExpression: 'attribute_not_exists(PK)' } }
        : {
            Put: {
              TableName: table,
              Item: levelItem,
              ConditionExpression: 'version = :v',
              ExpressionAttributeValues: { ':v': expectedVersion },
            },
          },
      { Put: { TableName: table, Item: changeItem, ConditionExpression: 'attribute_not_exists(PK)' } },
    ],
  };
}
