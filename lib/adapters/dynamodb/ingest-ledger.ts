// IngestLedger on the main table: one item per agent + messageId, kept 7 days (TTL), so a
// message redelivered within that time is recognised. A claim left `pending` by a failed run
// can be taken again; only a `done` claim marks a duplicate. A batch costs one BatchGetItem per
// 100 messages, one conditional TransactWriteItems per 100 to claim and one BatchWriteItem per
// 25 to complete.
import { BatchGetCommand, BatchWriteCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClaimStatus, IngestLedger, MessageKey } from '../../ingest/ports';
import { ingestKeys } from './keys';
import { cancellationCodes } from './transactions';

const KEEP_DAYS = 7;
const expiresAt = (now: Date): number => Math.ceil(now.getTime() / 1000) + KEEP_DAYS * 86_400;
/** DynamoDB's limits per request. */
const GET_BATCH = 100;
const TRANSACTION_ITEMS = 100;
const WRITE_BATCH = 25;
/** Rounds for unprocessed keys/items and conflicting transactions before the batch fails (and is retried whole). */
const ROUNDS = 5;

const chunks = <T>(items: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
const pause = (round: number) => new Promise((r) => setTimeout(r, 25 * 2 ** round * Math.random()));
const id = (k: MessageKey) => `${k.agentId}\u0000${k.messageId}`;

export function dynamoDbIngestLedger(client: DynamoDBDocumentClient, tableName: string): IngestLedger {
  /** Status items of the keys (absent when never claimed). */
  async function statuses(keys: readonly MessageKey[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const chunk of chunks(keys, GET_BATCH)) {
      let pending: Record<string, unknown>[] = chunk.map((k) => ({ ...ingestKeys.ledger(k.agentId, k.messageId) }));
      for (let round = 0; pending.length > 0; round++) {
        if (round >= ROUNDS) throw new Error(`the ingest ledger left ${pending.length} key(s) unread after ${ROUNDS} rounds`);
        if (round > 0) await pause(round);
        const out = await client.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true, ProjectionExpression: 'AgentId, MessageId, #s', ExpressionAttributeNames: { '#s': 'Status' } } } }));
        for (const item of out.Responses?.[tableName] ?? []) found.set(`${item.AgentId}\u0000${item.MessageId}`, String(item.Status));
        pending = (out.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
      }
    }
    return found;
  }

  /** Takes the claims in transactions; a key another run completed meanwhile comes back as done. */
  async function take(keys: readonly MessageKey[], now: Date): Promise<Set<string>> {
    const doneMeanwhile = new Set<string>();
    for (const chunk of chunks(keys, TRANSACTION_ITEMS)) {
      let open = chunk;
      for (let round = 0; open.length > 0; round++) {
        if (round >= ROUNDS) throw new Error(`the ingest ledger could not claim ${open.length} message(s) after ${ROUNDS} rounds`);
        if (round > 0) await pause(round);
        try {
          await client.send(
            new TransactWriteCommand({
              TransactItems: open.map((k) => ({
                Put: {
                  TableName: tableName,
                  Item: { ...ingestKeys.ledger(k.agentId, k.messageId), Type: 'IngestClaim', AgentId: k.agentId, MessageId: k.messageId, Status: 'pending', ClaimedAt: now.toISOString(), ExpiresAt: expiresAt(now) },
                  ConditionExpression: 'attribute_not_exists(PK) OR #s = :pending',
                  ExpressionAttributeNames: { '#s': 'Status' },
                  ExpressionAttributeValues: { ':pending': 'pending' },
                },
              })),
            }),
          );
          open = [];
        } catch (error) {
          const codes = cancellationCodes(error);
          if (!codes) throw error;
          // A failed condition: another run completed that message. Anything else (a conflict
          // with a concurrent transaction): try the rest again.
          const failedNow = open.filter((_, i) => codes[i] === 'ConditionalCheckFailed');
          for (const k of failedNow) doneMeanwhile.add(id(k));
          open = open.filter((_, i) => codes[i] !== 'ConditionalCheckFailed');
        }
      }
    }
    return doneMeanwhile;
  }

  return {
    async claim(keys, now) {
      const before = await statuses(keys);
      const open = keys.filter((k) => before.get(id(k)) !== 'done');
      const doneMeanwhile = await take(open, now);
      return keys.map((k): ClaimStatus => {
        const status = before.get(id(k));
        if (status === 'done' || doneMeanwhile.has(id(k))) return 'done';
        return status === 'pending' ? 'retry' : 'new';
      });
    },
    async complete(keys, now) {
      await Promise.all(
        chunks(keys, WRITE_BATCH).map(async (chunk) => {
          let pending: Record<string, unknown>[] = chunk.map((k) => ({
            PutRequest: { Item: { ...ingestKeys.ledger(k.agentId, k.messageId), Type: 'IngestClaim', AgentId: k.agentId, MessageId: k.messageId, Status: 'done', DoneAt: now.toISOString(), ExpiresAt: expiresAt(now) } },
          }));
          for (let round = 0; pending.length > 0; round++) {
            if (round >= ROUNDS) throw new Error(`the ingest ledger left ${pending.length} completion(s) unwritten after ${ROUNDS} rounds`);
            if (round > 0) await pause(round);
            const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
            pending = (out.UnprocessedItems?.[tableName] ?? []) as Record<string, unknown>[];
          }
        }),
      );
    },
  };
}
