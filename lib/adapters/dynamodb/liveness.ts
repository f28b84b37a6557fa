// Device liveness on the main table: one item per device (uid), updated by keep-alives.
// `DueAt` = last seen + 3 announced intervals (5 minutes when none was announced); GSI2 orders a
// customer's devices by it, so "which devices went silent" is one Query: DueAt < now.
// Requests are built in ingest-params.ts.
import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DeviceLiveness, KeepAlive } from '../../ingest/ports';
import { deviceItem } from './item-schemas';
import { parseItem } from './items';
import { livenessCount, livenessUpdate, silentDevicesQuery } from './ingest-params';
import { isConditionFailure } from './transactions';

export { dueAt } from './ingest-params';

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

export function dynamoDbLiveness(
  client: DynamoDBDocumentClient,
  tableName: string,
): DeviceLiveness & { silentDevices(customerId: string, now: Date): Promise<DeviceStatus[]> } {
  return {
    async record(k: KeepAlive) {
      try {
        await client.send(new UpdateCommand(livenessUpdate(tableName, k)));
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        await client.send(new UpdateCommand(livenessCount(tableName, k.uid)));
      }
    },
    async silentDevices(customerId, now) {
      const out: DeviceStatus[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({ ...silentDevicesQuery(tableName, customerId, now), ExclusiveStartKey: start }),
        );
        for (const item of page.Items ?? []) {
          const d = parseItem(deviceItem, 'Device', item);
          out.push({
            uid: d.PK.slice('DEVICE#'.length),
            agentId: d.AgentId,
            deviceId: d.DeviceId,
            plantId: d.PlantId,
            lastSeen: d.LastSeen,
            intervalMs: d.IntervalMs,
            dueAt: d.DueAt,
            messagesSeen: d.MessagesSeen,
          });
        }
        start = page.LastEvaluatedKey;
      } while (start);
      return out;
    },
  };
}
