// The maintenance repository on the main DynamoDB table (design: docs/dynamodb.md, "Maintenance").
// Lists are Queries on a key or an index; totals and page positions come from counters.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type BatchGetCommandOutput, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../../core/config';
import { AppError } from '../../core/errors';
import { firstDayOf, lastDayOf, OPEN_RANGE, type DateRange } from '../../maintenance/dates';
import type { PageWindow } from '../../maintenance/paging';
import type { AssetFilter, IdempotencyRecord, MaintenanceRepository, Slice } from '../../maintenance/ports';
import type { Asset, JobDone, JobPlanned, StockChange, StockLevel, Task, TaskStatus } from '../../maintenance/records';
import { documentClient } from './client';
import { maintenanceKeys as mk, pk, type ItemKey } from './keys';
import { counterDeltas, counterPlan, locate, mergeDeltas, totalOf, type CountUnit } from './maintenance-counters';
import * as params from './maintenance-params';

const KEY_ATTRIBUTES = ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'Type', 'Rev', 'ExpiresAt'];
const MAX_TRANSACTION_ITEMS = 100;

function strip<T>(item: Record<string, unknown>): T {
  const copy: Record<string, unknown> = { ...item };
  for (const key of KEY_ATTRIBUTES) delete copy[key];
  return copy as T;
}

function cancellationCodes(error: unknown): string[] | undefined {
  if ((error as { name?: string })?.name !== 'TransactionCanceledException') return undefined;
  return ((error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface MaintenanceAdapterOptions {
  /** Called with the read capacity units of every read (benchmarks); off by default. */
  readonly onReadCapacity?: (units: number) => void;
}

export function dynamoDbMaintenance(client: DynamoDBDocumentClient, table: string, options: MaintenanceAdapterOptions = {}): MaintenanceRepository {
  const capacity = options.onReadCapacity ? ({ ReturnConsumedCapacity: 'TOTAL' } as const) : {};
  const report = (out: { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> }) => {
    if (!options.onReadCapacity || !out.ConsumedCapacity) return;
    const list = Array.isArray(out.ConsumedCapacity) ? out.ConsumedCapacity : [out.ConsumedCapacity];
    options.onReadCapacity(list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0));
  };

  async function get(key: ItemKey, consistent = false): Promise<Record<string, unknown> | undefined> {
    const out = await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: consistent, ...capacity }));
    report(out);
    return out.Item;
  }

  /** Reads until `want` items (all when undefined) or the end of the key range. */
  async function query(input: Omit<QueryCommandInput, 'TableName'>, want?: number): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const limit = want === undefined ? undefined : want - items.length;
      const out = await client.send(new QueryCommand({ ...input, TableName: table, ExclusiveStartKey: start, ...(limit !== undefined ? { Limit: limit } : {}), ...capacity }));
      report(out);
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start && (want === undefined || items.length < want));
    return items;
  }

  async function counters(plantId: string, collection: string, level: 'D' | 'M', from: string, to: string): Promise<CountUnit[]> {
    const items = await query(params.counterQuery(plantId, collection, level, from, to));
    return items.map((i) => ({ kind: level === 'D' ? 'day' : 'month', period: String(i.SK).slice(String(i.SK).lastIndexOf('#') + 1), n: Number(i.n ?? 0) }));
  }

  async function countUnits(plantId: string, collection: string, range: DateRange): Promise<CountUnit[]> {
    const plan = counterPlan(range);
    const [head, months, tail] = await Promise.all([
      plan.headDays ? counters(plantId, collection, 'D', plan.headDays.from, plan.headDays.to) : [],
      plan.months ? counters(plantId, collection, 'M', plan.months.from, plan.months.to) : [],
      plan.tailDays ? counters(plantId, collection, 'D', plan.tailDays.from, plan.tailDays.to) : [],
    ]);
    return [...head, ...months, ...tail];
  }

  /** A page of a date-ordered collection: counters locate the first day, then one index range read. */
  async function listDated<T>(plantId: string, collection: string, index: 'GSI1' | 'GSI2', range: DateRange, window: PageWindow): Promise<Slice<T>> {
    const units = await countUnits(plantId, collection, range);
    const total = totalOf(units);
    if (window.offset >= total || window.limit === 0) return { items: [], total };
    let found = locate(units, window.offset);
    if (found?.unit.kind === 'month') {
      const days = await counters(plantId, collection, 'D', firstDayOf(found.unit.period), lastDayOf(found.unit.period));
      const inMonth = locate(days, window.offset - found.before);
      found = inMonth ? { unit: inMonth.unit, before: found.before + inMonth.before } : undefined;
    }
    // Month and day counters disagreeing (a write in flight): fall back to skipping from the range start.
    const fromDay = found?.unit.period ?? range.start;
    const skip = found ? window.offset - found.before : window.offset;
    const items = await query(params.collectionQuery(index, mk.collection(plantId, collection), fromDay, range.end), skip + window.limit);
    return { items: items.slice(skip, skip + window.limit).map((i) => strip<T>(i)), total };
  }

  async function batchGet(keys: readonly ItemKey[]): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < keys.length; i += 100) {
      let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + 100) as unknown as Record<string, unknown>[];
      for (let attempt = 0; pending && pending.length > 0; attempt++) {
        if (attempt > 0) await pause(Math.min(1000, 25 * 2 ** attempt));
        const out: BatchGetCommandOutput = await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
        for (const item of out.Responses?.[table] ?? []) found.set(`${String(item.PK)}|${String(item.SK)}`, item);
        pending = out.UnprocessedKeys?.[table]?.Keys;
        if (attempt > 10) throw new AppError('SERVICE_UNAVAILABLE', 'DynamoDB kept throttling reads; run the import again (it is idempotent)');
      }
    }
    return found;
  }

  /**
   * Creates or replaces records with their counters in transactions (at most 100 items each).
   * Each record is put only if it is still as read (absent, or the same revision); when another
   * writer came first the group is read and written again.
   */
  async function putRecords<T extends object>(kind: params.RecordKind<T>, plantId: string, records: readonly T[]): Promise<void> {
    const byKey = new Map<string, T>();
    for (const r of records) {
      const k = kind.key(plantId, r);
      byKey.set(`${k.PK}|${k.SK}`, r);
    }
    const unique = [...byKey.values()];
    for (let i = 0; i < unique.length; i += 40) await writeGroup(kind, plantId, unique.slice(i, i + 40));
  }

  async function writeGroup<T extends object>(kind: params.RecordKind<T>, plantId: string, group: readonly T[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const olds = await batchGet(group.map((r) => kind.key(plantId, r)));
      const puts = group.map((record) => {
        const k = kind.key(plantId, record);
        const old = olds.get(`${k.PK}|${k.SK}`);
        const previousRev = old ? Number(old.Rev ?? 0) : 0;
        return { item: params.putRecord(table, params.recordItem(kind, plantId, record, previousRev + 1), previousRev), deltas: counterDeltas(old ? kind.memberships(strip<T>(old)) : [], kind.memberships(record)) };
      });
      const deltas = mergeDeltas(puts.map((p) => p.deltas));
      if (puts.length + deltas.length > MAX_TRANSACTION_ITEMS && group.length > 1) {
        const half = Math.ceil(group.length / 2);
        await writeGroup(kind, plantId, group.slice(0, half));
        await writeGroup(kind, plantId, group.slice(half));
        return;
      }
      try {
        await client.send(new TransactWriteCommand({ TransactItems: [...puts.map((p) => p.item), ...deltas.map((d) => params.counterUpdate(table, plantId, d))] }));
        return;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (!codes || !codes.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict') || attempt >= 8) throw error;
        await pause(Math.min(1000, 20 * 2 ** attempt));
      }
    }
  }

  async function plannedByAsset(plantId: string, range: DateRange, filter: AssetFilter): Promise<Record<string, unknown>[]> {
    let tags: string[];
    if (filter.tagNumber !== undefined) tags = [filter.tagNumber];
    else {
      const bySerial = filter.serialNumber === undefined ? undefined : await query({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': mk.assetBySerial(plantId, filter.serialNumber) } });
      const byRef = filter.externalReference === undefined ? undefined : await query({ IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': mk.assetByReference(plantId, filter.externalReference) } });
      const sets = [bySerial, byRef].filter((s) => s !== undefined).map((s) => s.map((a) => String(a.tagNumber)));
      tags = (sets[0] ?? []).filter((t) => sets.every((s) => s.includes(t)));
    }
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
    const pages = await Promise.all(
      tags.map((tag) => {
        const input = params.collectionQuery('GSI2', mk.plannedOfAsset(plantId, tag), range.start, range.end);
        return query(conditions.length === 0 ? input : { ...input, FilterExpression: conditions.join(' AND '), ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...values } });
      }),
    );
    return pages.flat().sort((a, b) => String(a.GSI2SK).localeCompare(String(b.GSI2SK)));
  }

  async function getIdempotency(plantId: string, callerId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const item = await get(mk.idempotency(plantId, callerId, key), true);
    if (!item || Number(item.ExpiresAt ?? 0) * 1000 < Date.now()) return undefined;
    return { requestHash: String(item.requestHash), taskId: String(item.taskId), createdAt: String(item.createdAt) };
  }

  return {
    listJobsDone: (plantId, range, window) => listDated<JobDone>(plantId, 'JOBDONE', 'GSI1', range, window),
    async listJobsPlanned(plantId, range, filter, window) {
      if (filter.tagNumber === undefined && filter.serialNumber === undefined && filter.externalReference === undefined) return listDated<JobPlanned>(plantId, 'JOBPLANNED', 'GSI1', range, window);
      // One asset's planned jobs are few: read them all, count and cut the page here.
      const all = await plannedByAsset(plantId, range, filter);
      return { items: all.slice(window.offset, window.offset + window.limit).map((i) => strip<JobPlanned>(i)), total: all.length };
    },
    async listAssets(plantId, window) {
      const counter = await get(mk.total(plantId, 'ASSET'));
      const total = Number(counter?.n ?? 0);
      if (window.offset >= total || window.limit === 0) return { items: [], total };
      // Asset registers are small (docs/dynamodb.md): the skipped assets are read, not returned.
      const items = await query({ KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': pk.plant(plantId), ':prefix': mk.assetPrefix } }, window.offset + window.limit);
      return { items: items.slice(window.offset).map((i) => strip<Asset>(i)), total };
    },
    listTasks: (plantId, status: TaskStatus | undefined, window) =>
      status === undefined ? listDated<Task>(plantId, 'TASK', 'GSI1', OPEN_RANGE, window) : listDated<Task>(plantId, `TASK#${status}`, 'GSI2', OPEN_RANGE, window),
    async getAsset(plantId, tagNumber) {
      const item = await get(mk.asset(plantId, tagNumber));
      return item ? strip<Asset>(item) : undefined;
    },

    putJobsDone: (plantId, jobs) => putRecords(params.jobDoneKind, plantId, jobs),
    putJobsPlanned: (plantId, jobs) => putRecords(params.jobPlannedKind, plantId, jobs),
    putAssets: (plantId, assets) => putRecords(params.assetKind, plantId, assets),
    putTasks: (plantId, tasks) => putRecords(params.taskKind, plantId, tasks),

    getIdempotency,
    async createTask(write) {
      const deltas = mergeDeltas([counterDeltas([], params.taskKind.memberships(write.task))]);
      try {
        await client.send(new TransactWriteCommand(params.newTaskTransaction(table, write.task.plantId, write, deltas, Math.floor(Date.now() / 1000))));
        return { outcome: 'created' };
      } catch (error) {
        const codes = cancellationCodes(error);
        if (write.idempotency && codes?.at(-1) === 'ConditionalCheckFailed') {
          const { callerId, key } = write.idempotency;
          const record: IdempotencyRecord | undefined = await getIdempotency(write.task.plantId, callerId, key);
          if (record) return { outcome: 'replayed', record };
        }
        throw error;
      }
    },

    async getStockLevel(plantId, partId) {
      const item = await get(mk.stockLevel(plantId, partId), true);
      return item ? strip<StockLevel>(item) : undefined;
    },
    async putStockLevel(level, change, expectedVersion) {
      try {
        await client.send(new TransactWriteCommand(params.stockLevelTransaction(table, level, change, expectedVersion)));
        return true;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (codes && codes.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict')) return false;
        throw error;
      }
    },
    async listStockHistory(plantId, partId) {
      const items = await query({ KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': pk.plant(plantId), ':prefix': mk.stockHistoryPrefix(partId) }, ConsistentRead: true });
      return items.map((i) => strip<StockChange>(i));
    },
  };
}

let fromConfig: MaintenanceRepository | undefined;

/** The repository of the running function (main table from configuration). */
export function maintenanceRepository(): MaintenanceRepository {
  fromConfig ??= dynamoDbMaintenance(documentClient(), config().MAIN_TABLE);
  return fromConfig;
}

/** For the admin CLI, tests and benchmarks: a repository on an explicit endpoint. */
export function openMaintenance(options: { tableName: string; endpoint?: string; region: string } & MaintenanceAdapterOptions): { repository: MaintenanceRepository; close(): void } {
  const raw = new DynamoDBClient(
    options.endpoint ? { endpoint: options.endpoint, region: options.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 3 } : { region: options.region },
  );
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  return { repository: dynamoDbMaintenance(doc, options.tableName, options), close: () => raw.destroy() };
}
