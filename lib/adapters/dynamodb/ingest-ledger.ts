// IngestLedger on the main table: one item per agent + messageId, kept 7 days (TTL), so a
// message redelivered within that time is recognised. A claim left `pending` by a failed run
// can be taken again; only a `done` claim marks a duplicate. A batch costs one BatchGetItem per
// 100 messages, one conditional TransactWriteItems per 100 to claim and one BatchWriteItem per
// 25 to complete. Keys and items the service leaves undone (throttling, a conflicting
// transaction) are sent again by sendUntilDone; past its rounds the batch fails and is retried whole.
import {
  BatchGetCommand,
  BatchWriteCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { ClaimStatus, IngestLedger, MessageKey } from '../../ingest/ports';
import { chunks, DEFAULT_ROUNDS, sendUntilDone, type RoundPolicy } from '../partial-batch';
import { ledgerStatusItem } from './item-schemas';
import { parseItem } from './items';
import * as params from './ingest-params';
import { cancellationCodes } from './transactions';

/** DynamoDB's limits per request. */
const GET_BATCH = 100;
const TRANSACTION_ITEMS = 100;
const WRITE_BATCH = 25;

const id = (k: { agentId: string; messageId: string }) => `${k.agentId}\u0000${k.messageId}`;

export function dynamoDbIngestLedger(
  client: DynamoDBDocumentClient,
  tableName: string,
  rounds: RoundPolicy = DEFAULT_ROUNDS,
): IngestLedger {
  /** Status of each key that was ever claimed. */
  async function statuses(keys: readonly MessageKey[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const chunk of chunks(keys.map(params.ledgerKey), GET_BATCH)) {
      await sendUntilDone(
        'ingest ledger reads',
        chunk,
        async (pending) => {
          const out = await client.send(new BatchGetCommand(params.ledgerStatusRead(tableName, pending)));
          for (const item of out.Responses?.[tableName] ?? []) {
            const claim = parseItem(ledgerStatusItem, 'IngestClaim', item);
            found.set(id({ agentId: claim.AgentId, messageId: claim.MessageId }), claim.Status);
          }
          return out.UnprocessedKeys?.[tableName]?.Keys ?? [];
        },
        rounds,
      );
    }
    return found;
  }

  /** Takes the claims in transactions; a key another run completed meanwhile comes back as done. */
  async function take(keys: readonly MessageKey[], now: Date): Promise<Set<string>> {
    const doneMeanwhile = new Set<string>();
    for (const chunk of chunks(keys, TRANSACTION_ITEMS)) {
      await sendUntilDone(
        'ingest ledger claims',
        chunk,
        async (open) => {
          try {
            await client.send(new TransactWriteCommand(params.ledgerClaims(tableName, open, now)));
            return [];
          } catch (error) {
            const codes = cancellationCodes(error);
            if (!codes) throw error;
            // A failed condition: another run completed that message. The others were cancelled
            // with it (or conflicted with a concurrent transaction): claim them again.
            open.forEach((k, i) => codes[i] === 'ConditionalCheckFailed' && doneMeanwhile.add(id(k)));
            return open.filter((_, i) => codes[i] !== 'ConditionalCheckFailed');
          }
        },
        rounds,
      );
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
        chunks(keys, WRITE_BATCH).map((chunk) =>
          sendUntilDone(
            'ingest ledger completions',
            chunk.map((k) => params.ledgerCompletion(k, now)),
            async (pending) => {
              const out = await client.send(new BatchWriteCommand(params.batchWrite(tableName, pending)));
              return out.UnprocessedItems?.[tableName] ?? [];
            },
            rounds,
          ),
        ),
      );
    },
  };
}
