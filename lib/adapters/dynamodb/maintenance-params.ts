// Pure request builders of the maintenance adapter (STYLE.md: build params, send elsewhere).
import type { QueryCommandInput, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Asset, JobDone, JobPlanned, StockChange, StockLevel, Task } from '../../maintenance/records';
import type { NewTaskWrite } from '../../maintenance/ports';
import type { CounterDelta, Membership } from './maintenance-counters';
import { maintenanceKeys as mk, pk, ttlOf, type ItemKey } from './keys';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type Item = Record<string, unknown>;

/** How one kind of record is stored: its key, its index entries and the counters it joins. */
export interface RecordKind<T> {
  readonly type: string;
  key(plantId: string, record: T): ItemKey;
  indexes(plantId: string, record: T): Item;
  memberships(record: T): Membership[];
}

export const jobDoneKind: RecordKind<JobDone> = {
  type: 'JobDone',
  key: (plantId, job) => mk.jobDone(plantId, job.id),
  indexes: (plantId, job) => ({ GSI1PK: mk.collection(plantId, 'JOBDONE'), GSI1SK: mk.position(job.doneDate, job.id) }),
  memberships: (job) => [{ collection: 'JOBDONE', date: job.doneDate }],
};

export const jobPlannedKind: RecordKind<JobPlanned> = {
  type: 'JobPlanned',
  key: (plantId, job) => mk.jobPlanned(plantId, job.id),
  indexes: (plantId, job) => ({
    GSI1PK: mk.collection(plantId, 'JOBPLANNED'),
    GSI1SK: mk.position(job.dueDate, job.id),
    ...(job.asset?.tagNumber ? { GSI2PK: mk.plannedOfAsset(plantId, job.asset.tagNumber), GSI2SK: mk.position(job.dueDate, job.id) } : {}),
  }),
  memberships: (job) => [{ collection: 'JOBPLANNED', date: job.dueDate }],
};

export const taskKind: RecordKind<Task> = {
  type: 'Task',
  key: (plantId, task) => mk.task(plantId, task.id),
  indexes: (plantId, task) => ({
    GSI1PK: mk.collection(plantId, 'TASK'),
    GSI1SK: mk.position(task.createdDate, task.id),
    GSI2PK: mk.collection(plantId, `TASK#${task.taskStatus}`),
    GSI2SK: mk.position(task.createdDate, task.id),
  }),
  memberships: (task) => [{ collection: 'TASK', date: task.createdDate }, { collection: `TASK#${task.taskStatus}`, date: task.createdDate }],
};

export const assetKind: RecordKind<Asset> = {
  type: 'Asset',
  key: (plantId, asset) => mk.asset(plantId, asset.tagNumber),
  indexes: (plantId, asset) => ({
    ...(asset.serialNumber ? { GSI1PK: mk.assetBySerial(plantId, asset.serialNumber), GSI1SK: asset.tagNumber } : {}),
    ...(asset.externalReference ? { GSI2PK: mk.assetByReference(plantId, asset.externalReference), GSI2SK: asset.tagNumber } : {}),
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
    : { Put: { TableName: table, Item: item, ConditionExpression: 'Rev = :rev', ExpressionAttributeValues: { ':rev': previousRev } } };
}

export function counterUpdate(table: string, plantId: string, delta: CounterDelta): TransactItem {
  const key = delta.level === 'T' ? mk.total(plantId, delta.collection) : delta.level === 'D' ? mk.dayCounter(plantId, delta.collection, delta.period) : mk.monthCounter(plantId, delta.collection, delta.period);
  return { Update: { TableName: table, Key: key, UpdateExpression: 'ADD n :d SET #type = :type', ExpressionAttributeNames: { '#type': 'Type' }, ExpressionAttributeValues: { ':d': delta.delta, ':type': 'Counter' } } };
}

/** Counter items of one collection between two sort-key periods, inclusive. */
export function counterQuery(plantId: string, collection: string, level: 'D' | 'M', from: string, to: string): Omit<QueryCommandInput, 'TableName'> {
  const sk = level === 'D' ? mk.dayCounterSk : mk.monthCounterSk;
  return {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk.plant(plantId), ':from': sk(collection, from), ':to': sk(collection, to) },
    ProjectionExpression: 'SK, n',
  };
}

/** Records of a date-ordered collection from `fromDate` up to `toDate`, both inclusive. */
export function collectionQuery(index: 'GSI1' | 'GSI2', partition: string, fromDate: string, toDate: string): Omit<QueryCommandInput, 'TableName'> {
  const pkName = `${index}PK`;
  const skName = `${index}SK`;
  return {
    IndexName: index,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
    ExpressionAttributeValues: { ':pk': partition, ':from': `${fromDate}#`, ':to': `${toDate}#\uffff` },
  };
}

export function newTaskTransaction(table: string, plantId: string, write: NewTaskWrite, deltas: readonly CounterDelta[], nowSeconds: number): TransactWriteCommandInput {
  const items: TransactItem[] = [putRecord(table, recordItem(taskKind, plantId, write.task, 1), 0), ...deltas.map((d) => counterUpdate(table, plantId, d))];
  if (write.idempotency) {
    const { callerId, key, requestHash, expiresAt } = write.idempotency;
    items.push({
      Put: {
        TableName: table,
        Item: { ...mk.idempotency(plantId, callerId, key), Type: 'Idempotency', requestHash, taskId: write.task.id, createdAt: new Date(nowSeconds * 1000).toISOString(), ExpiresAt: ttlOf(expiresAt) },
        // TTL deletes late: an expired record counts as absent.
        ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt < :now',
        ExpressionAttributeValues: { ':now': nowSeconds },
      },
    });
  }
  return { TransactItems: items };
}

export function stockLevelTransaction(table: string, level: StockLevel, change: StockChange, expectedVersion: number): TransactWriteCommandInput {
  const levelItem = { ...level, ...mk.stockLevel(level.plantId, level.partId), Type: 'StockLevel' };
  const changeItem = { ...change, ...mk.stockChange(change.plantId, change.partId, change.version), Type: 'StockChange' };
  return {
    TransactItems: [
      expectedVersion === 0
        ? { Put: { TableName: table, Item: levelItem, ConditionExpression: 'attribute_not_exists(PK)' } }
        : { Put: { TableName: table, Item: levelItem, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } } },
      { Put: { TableName: table, Item: changeItem, ConditionExpression: 'attribute_not_exists(PK)' } },
    ],
  };
}
