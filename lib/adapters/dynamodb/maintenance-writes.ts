// The maintenance adapter's writes. Records are put with their counters in transactions; each
// put holds only if the record is still as read (absent, or the same revision), so two imports of
// the same records cannot count them twice: the one that lost reads and writes its group again.
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyRecord, NewTaskWrite, TaskCreation } from '../../maintenance/ports';
import type { StockChange, StockLevel } from '../../maintenance/records';
import { backoffMs, DEFAULT_ROUNDS, type RoundPolicy } from '../partial-batch';
import { idempotencyItem, revisionItem } from './item-schemas';
import { parseItem } from './items';
import { maintenanceKeys as mk } from './keys';
import { counterDeltas, mergeDeltas } from './maintenance-counters';
import * as params from './maintenance-params';
import { itemId, type TableReader } from './table-reader';
import { cancellationCodes, lostRace } from './transactions';

const MAX_TRANSACTION_ITEMS = 100;
/** Records read and written together; with their counters they mostly fit one transaction. */
const GROUP_SIZE = 40;
/** Attempts of a group that keeps losing to other writers (reads and writes again each time). */
const RACE_ROUNDS: RoundPolicy = { ...DEFAULT_ROUNDS, maxRounds: 9, baseMs: 20, capMs: 1000 };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface MaintenanceWrites {
  putRecords<T extends object>(kind: params.RecordKind<T>, plantId: string, records: readonly T[]): Promise<void>;
  getIdempotency(plantId: string, callerId: string, key: string): Promise<IdempotencyRecord | undefined>;
  createTask(write: NewTaskWrite): Promise<TaskCreation>;
  putStockLevel(level: StockLevel, change: StockChange, expectedVersion: number): Promise<boolean>;
}

export function maintenanceWrites(
  client: DynamoDBDocumentClient,
  table: string,
  reader: TableReader,
): MaintenanceWrites {
  /** The group's records as stored now, by key. */
  async function storedRecords<T extends object>(
    kind: params.RecordKind<T>,
    plantId: string,
    group: readonly T[],
  ): Promise<Map<string, params.StoredRecord<T>>> {
    const found = await reader.batchGet(group.map((r) => kind.key(plantId, r)));
    const stored = new Map<string, params.StoredRecord<T>>();
    for (const [id, item] of found)
      stored.set(id, {
        record: parseItem(kind.schema, kind.type, item),
        rev: parseItem(revisionItem, kind.type, item).Rev,
      });
    return stored;
  }

  /** @throws the transaction's error after RACE_ROUNDS lost races, or at once for any other error. */
  async function writeGroup<T extends object>(
    kind: params.RecordKind<T>,
    plantId: string,
    group: readonly T[],
  ): Promise<void> {
    for (let round = 0; ; round++) {
      const stored = await storedRecords(kind, plantId, group);
      const writes = group.map((record) =>
        params.recordWrite(table, kind, plantId, record, stored.get(itemId(kind.key(plantId, record)))),
      );
      const deltas = mergeDeltas(writes.map((w) => w.deltas));
      if (writes.length + deltas.length > MAX_TRANSACTION_ITEMS && group.length > 1) {
        const half = Math.ceil(group.length / 2);
        await writeGroup(kind, plantId, group.slice(0, half));
        await writeGroup(kind, plantId, group.slice(half));
        return;
      }
      try {
        await client.send(
          new TransactWriteCommand(
            params.recordsTransaction(
              table,
              plantId,
              writes.map((w) => w.put),
              deltas,
            ),
          ),
        );
        return;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (!codes || !lostRace(codes) || round + 1 >= RACE_ROUNDS.maxRounds) throw error;
        await pause(backoffMs(RACE_ROUNDS, round + 1));
      }
    }
  }

  async function getIdempotency(
    plantId: string,
    callerId: string,
    key: string,
  ): Promise<IdempotencyRecord | undefined> {
    const item = await reader.get(mk.idempotency(plantId, callerId, key), true);
    if (!item) return undefined;
    const { ExpiresAt, ...record } = parseItem(idempotencyItem, 'Idempotency', item);
    // TTL deletes late: an expired record counts as absent.
    return ExpiresAt * 1000 < Date.now() ? undefined : record;
  }

  return {
    async putRecords(kind, plantId, records) {
      // The last of several records with one key wins, as a later import would.
      const byKey = new Map(records.map((r) => [itemId(kind.key(plantId, r)), r] as const));
      const unique = [...byKey.values()];
      for (let i = 0; i < unique.length; i += GROUP_SIZE)
        await writeGroup(kind, plantId, unique.slice(i, i + GROUP_SIZE));
    },

    getIdempotency,

    async createTask(write) {
      const deltas = mergeDeltas([counterDeltas([], params.taskKind.memberships(write.task))]);
      try {
        await client.send(
          new TransactWriteCommand(
            params.newTaskTransaction(table, write.task.plantId, write, deltas, Math.floor(Date.now() / 1000)),
          ),
        );
        return { outcome: 'created' };
      } catch (error) {
        // The idempotency put is the last item: its condition failing means the key was used first.
        if (write.idempotency && cancellationCodes(error)?.at(-1) === 'ConditionalCheckFailed') {
          const record = await getIdempotency(write.task.plantId, write.idempotency.callerId, write.idempotency.key);
          if (record) return { outcome: 'replayed', record };
        }
        throw error;
      }
    },

    async putStockLevel(level, change, expectedVersion) {
      try {
        await client.send(
          new TransactWriteCommand(params.stockLevelTransaction(table, level, change, expectedVersion)),
        );
        return true;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (codes && lostRace(codes)) return false;
        throw error;
      }
    },
  };
}
