// Device liveness on the main table: one item per device (uid), updated by keep-alives.
// `DueAt` = last seen + 3 announced intervals (5 minutes when none was announced); GSI2 orders a
// customer's devices by it, so "which devices went silent" is one Query: DueAt < now.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DeviceLiveness, KeepAlive } from '../../ingest/ports';
import { ingestKeys } from './keys';

const MISSED_INTERVALS = 3;
const DEFAULT_INTERVAL_MS = 100_000;

export function dueAt(keepAlive: Pick<KeepAlive, 'lastSeen' | 'intervalMs'>): string {
  const interval = keepAlive.intervalMs ?? DEFAULT_INTERVAL_MS;
  return new Date(Date.parse(keepAlive.lastSeen) + MISSED_INTERVALS * interval).toISOString();
}

export interface DeviceStatus {
  readonly uid: string;
  readonly agentId: string;
  readonly deviceId: string;
  readonly plantId: string;
  readonly lastSeen: string;
  readonly intervalMs: number | null;
  readonly dueAt: string;
  readonly messagesSeen: number;
}

export function dynamoDbLiveness(client: DynamoDBDocumentClient, tableName: string): DeviceLiveness & { silentDevices(customerId: string, now: Date): Promise<DeviceStatus[]> } {
  return {
    async record(k: KeepAlive) {
      const due = dueAt(k);
      const plantKeys = k.plantId ? ingestKeys.deviceOfPlant(k.plantId, k.uid) : {};
      const names = Object.keys(plantKeys).map((name, i) => [`#p${i}`, name] as const);
      const setPlant = names.map(([alias], i) => `, ${alias} = :p${i}`).join('');
      try {
        // Newer keep-alive: move the device forward and count it.
        await client.send(
          new UpdateCommand({
            TableName: tableName,
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
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        // An older keep-alive arriving late: count it, keep the newer state.
        await client.send(new UpdateCommand({ TableName: tableName, Key: ingestKeys.device(k.uid), UpdateExpression: 'ADD MessagesSeen :one', ExpressionAttributeValues: { ':one': 1 } }));
      }
    },
    async silentDevices(customerId, now) {
      const out: DeviceStatus[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: 'GSI2',
            KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :now',
            ExpressionAttributeValues: { ':pk': ingestKeys.livenessPartition(customerId), ':now': now.toISOString() },
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) {
          out.push({ uid: String(item.PK).slice('DEVICE#'.length), agentId: item.AgentId, deviceId: item.DeviceId, plantId: item.PlantId, lastSeen: item.LastSeen, intervalMs: item.IntervalMs ?? null, dueAt: item.DueAt, messagesSeen: item.MessagesSeen ?? 0 });
        }
        start = page.LastEvaluatedKey;
      } while (start);
      return out;
    },
  };
}
