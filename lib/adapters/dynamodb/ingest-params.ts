// Pure request builders of the ingest adapters (ledger and device liveness), unit-tested without
// mocks; ingest-ledger.ts and liveness.ts send them.
import type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  QueryCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { KeepAlive, MessageKey } from '../../ingest/ports';
import { ingestKeys } from './keys';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type WriteRequest = NonNullable<NonNullable<BatchWriteCommandInput['RequestItems']>[string]>[number];

/** How long a ledger item is kept (TTL): a redelivery later than this is taken as new. */
export const LEDGER_KEEP_DAYS = 7;
const expiresAt = (now: Date): number => Math.ceil(now.getTime() / 1000) + LEDGER_KEEP_DAYS * 86_400;

export const ledgerKey = (k: MessageKey): Record<string, unknown> => ({ ...ingestKeys.ledger(k.agentId, k.messageId) });

/** Consistent reads of the claim status of up to 100 keys. */
export function ledgerStatusRead(table: string, keys: readonly Record<string, unknown>[]): BatchGetCommandInput {
  return {
    RequestItems: {
      [table]: {
        Keys: [...keys],
        ConsistentRead: true,
        ProjectionExpression: 'AgentId, MessageId, #s',
        ExpressionAttributeNames: { '#s': 'Status' },
      },
    },
  };
}

/** One claim: written when absent or still pending; a `done` message fails the condition. */
export function ledgerClaim(table: string, k: MessageKey, now: Date): TransactItem {
  return {
    Put: {
      TableName: table,
      Item: {
        ...ingestKeys.ledger(k.agentId, k.messageId),
        Type: 'IngestClaim',
        AgentId: k.agentId,
        MessageId: k.messageId,
        Status: 'pending',
        ClaimedAt: now.toISOString(),
        ExpiresAt: expiresAt(now),
      },
      ConditionExpression: 'attribute_not_exists(PK) OR #s = :pending',
      ExpressionAttributeNames: { '#s': 'Status' },
      ExpressionAttributeValues: { ':pending': 'pending' },
    },
  };
}

/** Claims of up to 100 messages, all or none. */
export function ledgerClaims(table: string, keys: readonly MessageKey[], now: Date): TransactWriteCommandInput {
  return { TransactItems: keys.map((k) => ledgerClaim(table, k, now)) };
}

/** The put that marks a message done (up to 25 go in one BatchWriteItem). */
export function ledgerCompletion(k: MessageKey, now: Date): WriteRequest {
  return {
    PutRequest: {
      Item: {
        ...ingestKeys.ledger(k.agentId, k.messageId),
        Type: 'IngestClaim',
        AgentId: k.agentId,
        MessageId: k.messageId,
        Status: 'done',
        DoneAt: now.toISOString(),
        ExpiresAt: expiresAt(now),
      },
    },
  };
}

export function batchWrite(table: string, writes: readonly WriteRequest[]): BatchWriteCommandInput {
  return { RequestItems: { [table]: [...writes] } };
}

const MISSED_INTERVALS = 3;
const DEFAULT_INTERVAL_MS = 100_000;

/** When a device that announced `intervalMs` (default 100 s) counts as silent: 3 intervals after it was last seen. */
export function dueAt(keepAlive: Pick<KeepAlive, 'lastSeen' | 'intervalMs'>): string {
  const interval = keepAlive.intervalMs ?? DEFAULT_INTERVAL_MS;
  return new Date(Date.parse(keepAlive.lastSeen) + MISSED_INTERVALS * interval).toISOString();
}

/** A newer keep-alive: moves the device forward and counts it; refused (condition) for an older one. */
export function livenessUpdate(table: string, k: KeepAlive): UpdateCommandInput {
  const due = dueAt(k);
  const plantKeys = k.plantId ? ingestKeys.deviceOfPlant(k.plantId, k.uid) : {};
  const names = Object.keys(plantKeys).map((name, i) => [`#p${i}`, name] as const);
  const setPlant = names.map(([alias], i) => `, ${alias} = :p${i}`).join('');
  return {
    TableName: table,
    Key: ingestKeys.device(k.uid),
    UpdateExpression: `SET #t = :type, CustomerId = :c, PlantId = :plant, AgentId = :a, DeviceId = :d, LastSeen = :ls, IntervalMs = :iv, DueAt = :due, GSI2PK = :g2pk, GSI2SK = :g2sk${setPlant} ADD MessagesSeen :one`,
    ConditionExpression: 'attribute_not_exists(LastSeen) OR LastSeen < :ls',
    ExpressionAttributeNames: { '#t': 'Type', ...Object.fromEntries(names) },
    ExpressionAttributeValues: {
      ':type': 'Device',
      ':c': k.customerId,
      ':plant': k.plantId,
      ':a': k.agentId,
      ':d': k.deviceId,
      ':ls': k.lastSeen,
      ':iv': k.intervalMs,
      ':due': due,
      ':g2pk': ingestKeys.livenessPartition(k.customerId),
      ':g2sk': `${due}#${k.uid}`,
      ':one': 1,
      ...Object.fromEntries(Object.values(plantKeys).map((v, i) => [`:p${i}`, v])),
    },
  };
}

/** An older keep-alive arriving late: counted, the newer state kept. */
export function livenessCount(table: string, uid: string): UpdateCommandInput {
  return {
    TableName: table,
    Key: ingestKeys.device(uid),
    UpdateExpression: 'ADD MessagesSeen :one',
    ExpressionAttributeValues: { ':one': 1 },
  };
}

/** A customer's devices whose next keep-alive was due before `now` (GSI2 is ordered by due time). */
export function silentDevicesQuery(table: string, customerId: string, now: Date): QueryCommandInput {
  return {
    TableName: table,
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :now',
    ExpressionAttributeValues: { ':pk': ingestKeys.livenessPartition(customerId), ':now': now.toISOString() },
  };
}
