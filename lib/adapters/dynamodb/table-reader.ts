// Reads of one table shared by the maintenance adapter's lists and writes: GetItem, Query
// (paged, up to a wanted count) and BatchGetItem (unprocessed keys sent again). GetItem and Query
// report the read capacity they consumed when asked to (benchmarks of the API's reads).
import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { AppError } from '../../core/errors';
import { chunks, DEFAULT_ROUNDS, PartialBatchError, sendUntilDone, type RoundPolicy } from '../partial-batch';
import type { ItemKey } from './keys';

export type StoredItem = Record<string, unknown>;

export interface ReaderOptions {
  /** Called with the read capacity units of every read (benchmarks); off by default. */
  readonly onReadCapacity?: (units: number) => void;
  readonly rounds?: RoundPolicy;
}

export interface TableReader {
  get(key: ItemKey, consistent?: boolean): Promise<StoredItem | undefined>;
  /** Reads until `want` items (all when undefined) or the end of the key range. */
  query(input: Omit<QueryCommandInput, 'TableName'>, want?: number): Promise<StoredItem[]>;
  /** Consistent reads of many keys; the found items by `PK|SK`. @throws AppError SERVICE_UNAVAILABLE when DynamoDB keeps throttling. */
  batchGet(keys: readonly ItemKey[]): Promise<Map<string, StoredItem>>;
}

/** DynamoDB's limit of keys per BatchGetItem. */
const GET_BATCH = 100;

export const itemId = (key: { PK: unknown; SK: unknown }): string => `${String(key.PK)}|${String(key.SK)}`;

type Capacity = { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> | undefined;

export function tableReader(client: DynamoDBDocumentClient, table: string, options: ReaderOptions = {}): TableReader {
  const capacity = options.onReadCapacity ? ({ ReturnConsumedCapacity: 'TOTAL' } as const) : {};
  const report = (consumed: Capacity) => {
    if (!options.onReadCapacity || !consumed) return;
    const list = Array.isArray(consumed) ? consumed : [consumed];
    options.onReadCapacity(list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0));
  };

  return {
    async get(key, consistent = false) {
      const out = await client.send(
        new GetCommand({ TableName: table, Key: key, ConsistentRead: consistent, ...capacity }),
      );
      report(out.ConsumedCapacity);
      return out.Item;
    },

    async query(input, want) {
      const items: StoredItem[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const limit = want === undefined ? undefined : want - items.length;
        const out = await client.send(
          new QueryCommand({
            ...input,
            TableName: table,
            ExclusiveStartKey: start,
            ...(limit !== undefined ? { Limit: limit } : {}),
            ...capacity,
          }),
        );
        report(out.ConsumedCapacity);
        items.push(...(out.Items ?? []));
        start = out.LastEvaluatedKey;
      } while (start && (want === undefined || items.length < want));
      return items;
    },

    async batchGet(keys) {
      const found = new Map<string, StoredItem>();
      try {
        for (const chunk of chunks(keys, GET_BATCH)) {
          await sendUntilDone(
            'maintenance reads',
            chunk.map((k): StoredItem => ({ ...k })),
            async (pending) => {
              const out = await client.send(
                new BatchGetCommand({ RequestItems: { [table]: { Keys: [...pending], ConsistentRead: true } } }),
              );
              for (const item of out.Responses?.[table] ?? []) found.set(itemId({ PK: item.PK, SK: item.SK }), item);
              return out.UnprocessedKeys?.[table]?.Keys ?? [];
            },
            options.rounds ?? DEFAULT_ROUNDS,
          );
        }
      } catch (error) {
        if (error instanceof PartialBatchError)
          throw new AppError(
            'SERVICE_UNAVAILABLE',
            'DynamoDB kept throttling reads; run the import again (it is idempotent)',
            undefined,
            { cause: error },
          );
        throw error;
      }
      return found;
    },
  };
}
