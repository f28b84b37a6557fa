// The maintenance adapter's request builders (lib/adapters/dynamodb/maintenance-params.ts): the
// exact requests, without a client or a mock.
import { describe, expect, it } from 'vitest';
import * as params from '../../../lib/adapters/dynamodb/maintenance-params';
import type { Asset, JobDone, StockChange, StockLevel, Task } from '../../../lib/maintenance/records';

const T = 'main';
const job: JobDone = {
  id: 'j1',
  plantId: 'p1',
  jobTitle: 'Oil change',
  doneDate: '2026-02-03',
  dueDate: null,
  activityKind: null,
  department: null,
  totalTimeUsedInHours: null,
  requiredPersonCount: null,
  isFinal: true,
  asset: null,
  workOrder: null,
  carriedOutByUser: null,
  partsUsed: [],
};
const asset: Asset = {
  tagNumber: 'P-101',
  plantId: 'p1',
  serialNumber: 'SN9',
  externalReference: null,
  description: null,
  manufacturer: null,
  model: null,
  location: null,
};
const task: Task = {
  id: 't1',
  plantId: 'p1',
  taskTitle: 'Check',
  taskDescription: null,
  activityKind: 'inspection',
  assignedToRole: 'operator',
  priority: 'high',
  taskStatus: 'PENDING',
  createdDate: '2026-02-03',
  dueDate: null,
  incidentDate: null,
  asset: null,
};

describe('record puts', () => {
  it('put a new record only if absent, at revision 1, with its index entries and counter changes', () => {
    const write = params.recordWrite(T, params.jobDoneKind, 'p1', job, undefined);
    expect(write.put).toEqual({
      Put: {
        TableName: T,
        Item: {
          ...job,
          PK: 'PLANT#p1',
          SK: 'JOBDONE#j1',
          GSI1PK: 'PLANT#p1#JOBDONE',
          GSI1SK: '2026-02-03#j1',
          Type: 'JobDone',
          Rev: 1,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
    expect([...write.deltas.values()]).toEqual([
      { collection: 'JOBDONE', level: 'D', period: '2026-02-03', delta: 1 },
      { collection: 'JOBDONE', level: 'M', period: '2026-02', delta: 1 },
    ]);
  });

  it('replace a stored record only at the revision read, moving its counters to the new date', () => {
    const write = params.recordWrite(
      T,
      params.jobDoneKind,
      'p1',
      { ...job, doneDate: '2026-03-01' },
      { record: job, rev: 4 },
    );
    expect(write.put).toEqual({
      Put: {
        TableName: T,
        Item: {
          ...job,
          doneDate: '2026-03-01',
          PK: 'PLANT#p1',
          SK: 'JOBDONE#j1',
          GSI1PK: 'PLANT#p1#JOBDONE',
          GSI1SK: '2026-03-01#j1',
          Type: 'JobDone',
          Rev: 5,
        },
        ConditionExpression: 'Rev = :rev',
        ExpressionAttributeValues: { ':rev': 4 },
      },
    });
    expect([...write.deltas.values()].map((d) => `${d.level}${d.period}:${d.delta}`)).toEqual([
      'D2026-02-03:-1',
      'M2026-02:-1',
      'D2026-03-01:1',
      'M2026-03:1',
    ]);
  });

  it('an unchanged record changes no counter; an asset joins the total and gets its serial-number index', () => {
    expect(params.recordWrite(T, params.jobDoneKind, 'p1', job, { record: job, rev: 1 }).deltas.size).toBe(0);
    const write = params.recordWrite(T, params.assetKind, 'p1', asset, undefined);
    expect(write.put.Put?.Item).toMatchObject({
      PK: 'PLANT#p1',
      SK: 'ASSET#P-101',
      GSI1PK: 'PLANT#p1#ASSET#SERIAL#SN9',
      GSI1SK: 'P-101',
      Type: 'Asset',
      Rev: 1,
    });
    expect(write.put.Put?.Item).not.toHaveProperty('GSI2PK');
    expect([...write.deltas.values()]).toEqual([{ collection: 'ASSET', level: 'T', period: '', delta: 1 }]);
  });

  it('one transaction holds the puts, then one ADD per counter', () => {
    const put = params.recordWrite(T, params.jobDoneKind, 'p1', job, undefined).put;
    expect(
      params.recordsTransaction(
        T,
        'p1',
        [put],
        [
          { collection: 'JOBDONE', level: 'M', period: '2026-02', delta: 2 },
          { collection: 'ASSET', level: 'T', period: '', delta: -1 },
        ],
      ),
    ).toEqual({
      TransactItems: [
        put,
        {
          Update: {
            TableName: T,
            Key: { PK: 'PLANT#p1', SK: 'CNT#JOBDONE#M#2026-02' },
            UpdateExpression: 'ADD n :d SET #type = :type',
            ExpressionAttributeNames: { '#type': 'Type' },
            ExpressionAttributeValues: { ':d': 2, ':type': 'Counter' },
          },
        },
        {
          Update: {
            TableName: T,
            Key: { PK: 'PLANT#p1', SK: 'CNT#ASSET' },
            UpdateExpression: 'ADD n :d SET #type = :type',
            ExpressionAttributeNames: { '#type': 'Type' },
            ExpressionAttributeValues: { ':d': -1, ':type': 'Counter' },
          },
        },
      ],
    });
  });
});

describe('queries', () => {
  it('counters of a collection between two periods, only their sort key and count', () => {
    expect(params.counterQuery('p1', 'TASK#PENDING', 'D', '2026-01-30', '2026-01-31')).toEqual({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': 'PLANT#p1',
        ':from': 'CNT#TASK#PENDING#D#2026-01-30',
        ':to': 'CNT#TASK#PENDING#D#2026-01-31',
      },
      ProjectionExpression: 'SK, n',
    });
  });

  it('a collection range on an index covers every id of both end days', () => {
    expect(params.collectionQuery('GSI2', 'PLANT#p1#TASK#PENDING', '2026-01-01', '2026-01-31')).toEqual({
      IndexName: 'GSI2',
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': 'GSI2PK', '#sk': 'GSI2SK' },
      ExpressionAttributeValues: { ':pk': 'PLANT#p1#TASK#PENDING', ':from': '2026-01-01#', ':to': '2026-01-31#\uffff' },
    });
  });

  it('assets of a plant, by serial number (GSI1) and by external reference (GSI2)', () => {
    expect(params.assetsQuery('p1')).toEqual({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': 'PLANT#p1', ':prefix': 'ASSET#' },
    });
    expect(params.assetsBy('p1', 'serialNumber', 'SN9')).toEqual({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': 'PLANT#p1#ASSET#SERIAL#SN9' },
    });
    expect(params.assetsBy('p1', 'externalReference', 'R7')).toEqual({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': 'PLANT#p1#ASSET#REF#R7' },
    });
  });

  it("an asset's planned jobs, filtered on the job's asset fields only when the filter names them", () => {
    const range = { start: '2026-01-01', end: '2026-12-31' };
    const base = params.collectionQuery('GSI2', 'PLANT#p1#JOBPLANNED#TAG#P-101', range.start, range.end);
    expect(params.plannedOfAssetQuery('p1', 'P-101', range, { tagNumber: 'P-101' })).toEqual(base);
    expect(params.plannedOfAssetQuery('p1', 'P-101', range, { serialNumber: 'SN9', externalReference: 'R7' })).toEqual({
      ...base,
      FilterExpression: 'asset.serialNumber = :serial AND asset.externalReference = :ref',
      ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ':serial': 'SN9', ':ref': 'R7' },
    });
  });

  it("a part's stock history, consistent", () => {
    expect(params.stockHistoryQuery('p1', 'bolt')).toEqual({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': 'PLANT#p1', ':prefix': 'STOCKHIST#bolt#' },
      ConsistentRead: true,
    });
  });
});

describe('transactions', () => {
  it('a new task with its counters and, last, its idempotency record (expired counts as absent)', () => {
    const write = {
      task,
      idempotency: { callerId: 'tok1', key: 'k-1', requestHash: 'h', expiresAt: '2026-02-04T00:00:00.000Z' },
    };
    const deltas = [{ collection: 'TASK', level: 'D' as const, period: '2026-02-03', delta: 1 }];
    const request = params.newTaskTransaction(T, 'p1', write, deltas, 1_770_000_000);
    expect(request.TransactItems).toHaveLength(3);
    expect(request.TransactItems?.[0]).toEqual(
      params.putRecord(T, params.recordItem(params.taskKind, 'p1', task, 1), 0),
    );
    expect(request.TransactItems?.[1]).toEqual(params.counterUpdate(T, 'p1', deltas[0]!));
    expect(request.TransactItems?.[2]).toEqual({
      Put: {
        TableName: T,
        Item: {
          PK: 'PLANT#p1',
          SK: 'IDEMPOTENCY#tok1#k-1',
          Type: 'Idempotency',
          requestHash: 'h',
          taskId: 't1',
          createdAt: new Date(1_770_000_000_000).toISOString(),
          ExpiresAt: Date.parse('2026-02-04T00:00:00.000Z') / 1000,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt < :now',
        ExpressionAttributeValues: { ':now': 1_770_000_000 },
      },
    });
    expect(params.newTaskTransaction(T, 'p1', { task }, deltas, 1_770_000_000).TransactItems).toHaveLength(2);
  });

  it('a stock level at the version read, with its change appended once', () => {
    const level: StockLevel = {
      plantId: 'p1',
      partId: 'bolt',
      quantity: 5,
      unit: 'pcs',
      remark: null,
      isShort: false,
      version: 3,
      updatedAt: '2026-02-03T10:00:00Z',
      updatedBy: 'tok1',
    };
    const change: StockChange = {
      plantId: 'p1',
      partId: 'bolt',
      version: 3,
      at: '2026-02-03T10:00:00Z',
      by: 'tok1',
      oldQuantity: 7,
      newQuantity: 5,
      oldUnit: 'pcs',
      newUnit: 'pcs',
      remark: null,
      isShort: false,
    };
    expect(params.stockLevelTransaction(T, level, change, 2)).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: T,
            Item: { ...level, PK: 'PLANT#p1', SK: 'STOCK#bolt', Type: 'StockLevel' },
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': 2 },
          },
        },
        {
          Put: {
            TableName: T,
            Item: { ...change, PK: 'PLANT#p1', SK: 'STOCKHIST#bolt#0000000003', Type: 'StockChange' },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    });
    expect(
      params.stockLevelTransaction(T, { ...level, version: 1 }, { ...change, version: 1 }, 0).TransactItems?.[0],
    ).toMatchObject({ Put: { ConditionExpression: 'attribute_not_exists(PK)' } });
  });
});
