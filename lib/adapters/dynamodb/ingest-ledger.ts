// IngestLedger on the main table: one item per agent + messageId, kept 7 days (TTL), so a
// message redelivered within that time is recognised. A claim left `pending` by a failed run
// can be taken again; only a `done` claim marks a duplicate.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IngestLedger } from '../../ingest/ports';
import { ingestKeys } from './keys';

const KEEP_DAYS = 7;
const expiresAt = (now: Date): number => Math.ceil(now.getTime() / 1000) + KEEP_DAYS * 86_400;

export function dynamoDbIngestLedger(client: DynamoDBDocumentClient, tableName: string): IngestLedger {
  return {
    async claim(agentId, messageId, now) {
      try {
        const out = await client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...ingestKeys.ledger(agentId, messageId), Type: 'IngestClaim', Status: 'pending', ClaimedAt: now.toISOString(), ExpiresAt: expiresAt(now) },
            ConditionExpression: 'attribute_not_exists(PK) OR #s = :pending',
            ExpressionAttributeNames: { '#s': 'Status' },
            ExpressionAttributeValues: { ':pending': 'pending' },
            ReturnValues: 'ALL_OLD',
          }),
        );
        return out.Attributes ? 'retry' : 'new';
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return 'done';
        throw error;
      }
    },
    async complete(agentId, messageId, now) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: ingestKeys.ledger(agentId, messageId),
          UpdateExpression: 'SET #s = :done, DoneAt = :now, ExpiresAt = :exp',
          ExpressionAttributeNames: { '#s': 'Status' },
          ExpressionAttributeValues: { ':done': 'done', ':now': now.toISOString(), ':exp': expiresAt(now) },
        }),
      );
    },
  };
}
