// Request builders of the registry and the ingest adapters (registry-params.ts, ingest-params.ts):
// the exact requests, without a client or a mock.
import { describe, expect, it } from 'vitest';
import * as ingest from '../../../lib/adapters/dynamodb/ingest-params';
import * as registry from '../../../lib/adapters/dynamodb/registry-params';
import type { Part } from '../../../lib/registry/model';

const T = 'main';
const NOW = new Date('2026-03-01T12:00:00.000Z');
const SEVEN_DAYS_LATER = Math.ceil(NOW.getTime() / 1000) + 7 * 86_400;
const key = { agentId: 'a1', messageId: 'm1' };

describe('registry requests', () => {
  it('create a plant only if new and only under an existing customer (transaction items in that order)', () => {
    const plant = { plantId: 'p1', customerId: 'c1', name: 'Mill', createdAt: '2026-01-01T00:00:00Z' };
    expect(registry.createUnderCustomer(T, registry.plantItem(plant), 'c1')).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: T,
            Item: { PK: 'PLANT#p1', SK: 'PLANT', GSI1PK: 'CUSTOMER#c1', GSI1SK: 'PLANT#p1', Type: 'Plant', ...plant },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          ConditionCheck: {
            TableName: T,
            Key: { PK: 'CUSTOMER#c1', SK: 'CUSTOMER' },
            ConditionExpression: 'attribute_exists(PK)',
          },
        },
      ],
    });
  });

  it("list a customer's agents on GSI1", () => {
    expect(registry.listChildren('c1', 'agent')).toEqual({
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
      ExpressionAttributeValues: { ':pk': 'CUSTOMER#c1', ':prefix': 'AGENT#' },
    });
  });

  it('batch parts 25 a request, the last of two parts with one key winning', () => {
    const part = (n: number, description = 'bolt'): Part => ({
      customerId: 'c1',
      plantId: n % 2 ? 'p1' : null,
      partNumber: `N${n}`,
      description,
    });
    const requests = registry.batchPutParts(T, [...Array.from({ length: 30 }, (_, i) => part(i)), part(3, 'new bolt')]);
    expect(requests.map((r) => r.RequestItems?.[T]?.length)).toEqual([25, 5]);
    expect(requests[0]?.RequestItems?.[T]?.[3]).toEqual({
      PutRequest: { Item: { PK: 'PLANT#p1', SK: 'PART#N3', Type: 'Part', ...part(3, 'new bolt') } },
    });
    expect(requests[0]?.RequestItems?.[T]?.[0]).toEqual({
      PutRequest: { Item: { PK: 'CUSTOMER#c1', SK: 'PART#N0', Type: 'Part', ...part(0) } },
    });
  });
});

describe('ingest ledger requests', () => {
  it('read the status of keys consistently, projecting only what the claim needs', () => {
    expect(ingest.ledgerStatusRead(T, [ingest.ledgerKey(key)])).toEqual({
      RequestItems: {
        [T]: {
          Keys: [{ PK: 'INGEST#a1#m1', SK: 'INGEST' }],
          ConsistentRead: true,
          ProjectionExpression: 'AgentId, MessageId, #s',
          ExpressionAttributeNames: { '#s': 'Status' },
        },
      },
    });
  });

  it('claim a message when absent or pending, kept seven days', () => {
    expect(ingest.ledgerClaims(T, [key], NOW)).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: T,
            Item: {
              PK: 'INGEST#a1#m1',
              SK: 'INGEST',
              Type: 'IngestClaim',
              AgentId: 'a1',
              MessageId: 'm1',
              Status: 'pending',
              ClaimedAt: NOW.toISOString(),
              ExpiresAt: SEVEN_DAYS_LATER,
            },
            ConditionExpression: 'attribute_not_exists(PK) OR #s = :pending',
            ExpressionAttributeNames: { '#s': 'Status' },
            ExpressionAttributeValues: { ':pending': 'pending' },
          },
        },
      ],
    });
  });

  it('mark a message done with an unconditional put', () => {
    expect(ingest.batchWrite(T, [ingest.ledgerCompletion(key, NOW)])).toEqual({
      RequestItems: {
        [T]: [
          {
            PutRequest: {
              Item: {
                PK: 'INGEST#a1#m1',
                SK: 'INGEST',
                Type: 'IngestClaim',
                AgentId: 'a1',
                MessageId: 'm1',
                Status: 'done',
                DoneAt: NOW.toISOString(),
                ExpiresAt: SEVEN_DAYS_LATER,
              },
            },
          },
        ],
      },
    });
  });
});

describe('liveness requests', () => {
  const keepAlive = {
    customerId: 'c1',
    plantId: 'p1',
    uid: 'a1_d1',
    agentId: 'a1',
    deviceId: 'd1',
    lastSeen: '2026-03-01T12:00:00.000Z',
    intervalMs: 60_000,
  };

  it('due three announced intervals after the last keep-alive, 100 s each when none was announced', () => {
    expect(ingest.dueAt(keepAlive)).toBe('2026-03-01T12:03:00.000Z');
    expect(ingest.dueAt({ ...keepAlive, intervalMs: null })).toBe('2026-03-01T12:05:00.000Z');
  });

  it('move a device forward only for a newer keep-alive, indexing it under its plant and due time', () => {
    expect(ingest.livenessUpdate(T, keepAlive)).toEqual({
      TableName: T,
      Key: { PK: 'DEVICE#a1_d1', SK: 'DEVICE' },
      UpdateExpression:
        'SET #t = :type, CustomerId = :c, PlantId = :plant, AgentId = :a, DeviceId = :d, LastSeen = :ls, IntervalMs = :iv, DueAt = :due, GSI2PK = :g2pk, GSI2SK = :g2sk, #p0 = :p0, #p1 = :p1 ADD MessagesSeen :one',
      ConditionExpression: 'attribute_not_exists(LastSeen) OR LastSeen < :ls',
      ExpressionAttributeNames: { '#t': 'Type', '#p0': 'GSI1PK', '#p1': 'GSI1SK' },
      ExpressionAttributeValues: {
        ':type': 'Device',
        ':c': 'c1',
        ':plant': 'p1',
        ':a': 'a1',
        ':d': 'd1',
        ':ls': keepAlive.lastSeen,
        ':iv': 60_000,
        ':due': '2026-03-01T12:03:00.000Z',
        ':g2pk': 'LIVENESS#c1',
        ':g2sk': '2026-03-01T12:03:00.000Z#a1_d1',
        ':one': 1,
        ':p0': 'PLANT#p1',
        ':p1': 'DEVICE#a1_d1',
      },
    });
    const withoutPlant = ingest.livenessUpdate(T, { ...keepAlive, plantId: '' });
    expect(withoutPlant.ExpressionAttributeNames).toEqual({ '#t': 'Type' });
    expect(withoutPlant.UpdateExpression).not.toContain('#p0');
  });

  it("count a late keep-alive, and list a customer's silent devices from GSI2", () => {
    expect(ingest.livenessCount(T, 'a1_d1')).toEqual({
      TableName: T,
      Key: { PK: 'DEVICE#a1_d1', SK: 'DEVICE' },
      UpdateExpression: 'ADD MessagesSeen :one',
      ExpressionAttributeValues: { ':one': 1 },
    });
    expect(ingest.silentDevicesQuery(T, 'c1', NOW)).toEqual({
      TableName: T,
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :now',
      ExpressionAttributeValues: { ':pk': 'LIVENESS#c1', ':now': NOW.toISOString() },
    });
  });
});
