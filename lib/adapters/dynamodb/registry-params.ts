// Pure builders of the registry's DynamoDB requests (unit-tested without mocks).
import type {
  BatchWriteCommandInput,
  PutCommandInput,
  QueryCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type {
  Agent,
  Customer,
  LookupList,
  MaintenanceToken,
  Part,
  Plant,
  QueryClient,
  SeedMarker,
  TokenLink,
} from '../../registry/model';
import { gsi1, keys, pk, skPrefix, ttlOf } from './keys';

export type Item = Record<string, unknown> & { PK: string; SK: string };

export const customerItem = (c: Customer): Item => ({
  ...keys.customer(c.customerId),
  ...gsi1.customerEntry(c.customerId),
  Type: 'Customer',
  ...c,
});
export const plantItem = (p: Plant): Item => ({
  ...keys.plant(p.plantId),
  ...gsi1.plantOf(p.customerId, p.plantId),
  Type: 'Plant',
  ...p,
});
export const agentItem = (a: Agent): Item => ({
  ...keys.agent(a.agentId),
  ...gsi1.agentOf(a.customerId, a.agentId),
  Type: 'Agent',
  ...a,
});
export const clientItem = (c: QueryClient): Item => ({
  ...keys.client(c.clientId),
  ...gsi1.clientOf(c.customerId, c.clientId),
  Type: 'QueryClient',
  ...c,
});
export const tokenItem = (t: MaintenanceToken): Item => ({
  ...keys.maintenanceToken(t.tokenId),
  ...gsi1.tokenOf(t.plantId, t.createdAt, t.tokenId),
  Type: 'MaintenanceToken',
  ...t,
});
/** The link item expires from the table a day after the link itself (TTL deletion is lazy). */
export const linkItem = (l: TokenLink): Item => ({
  ...keys.tokenLink(l.linkHash),
  Type: 'TokenLink',
  ExpiresAt: ttlOf(l.expiresAt) + 86_400,
  ...l,
});
export const lookupItem = (l: LookupList): Item => ({
  ...keys.lookupList(l.customerId, l.kind),
  Type: 'LookupList',
  ...l,
});
export const partItem = (p: Part): Item => ({
  ...keys.part(p.customerId, p.plantId, p.partNumber),
  Type: 'Part',
  ...p,
});
export const seedItem = (s: SeedMarker): Item => ({ ...keys.seed(s.name), Type: 'SeedMarker', ...s });

/** A put that fails when the item exists. */
export function putNew(table: string, item: Item): PutCommandInput {
  return { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' };
}

/** Item 0: the new item (must not exist); item 1: its customer (must exist). */
export function createUnderCustomer(table: string, item: Item, customerId: string): TransactWriteCommandInput {
  return {
    TransactItems: [
      { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
      {
        ConditionCheck: {
          TableName: table,
          Key: keys.customer(customerId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
    ],
  };
}

export function createToken(table: string, token: MaintenanceToken, link: TokenLink): TransactWriteCommandInput {
  return {
    TransactItems: [
      { Put: { TableName: table, Item: tokenItem(token), ConditionExpression: 'attribute_not_exists(PK)' } },
      { Put: { TableName: table, Item: linkItem(link), ConditionExpression: 'attribute_not_exists(PK)' } },
      {
        ConditionCheck: {
          TableName: table,
          Key: keys.plant(token.plantId),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
    ],
  };
}

export function listCustomers(): Omit<QueryCommandInput, 'TableName'> {
  return {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': gsi1.customers() },
  };
}

export function listChildren(
  customerId: string,
  kind: 'plant' | 'agent' | 'client',
): Omit<QueryCommandInput, 'TableName'> {
  return {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
    ExpressionAttributeValues: { ':pk': pk.customer(customerId), ':prefix': gsi1.prefix[kind] },
  };
}

export function listTokens(plantId: string): Omit<QueryCommandInput, 'TableName'> {
  return {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
    ExpressionAttributeValues: { ':pk': pk.plant(plantId), ':prefix': gsi1.prefix.token },
  };
}

export function listLookups(customerId: string): Omit<QueryCommandInput, 'TableName'> {
  return {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': pk.customer(customerId), ':prefix': skPrefix.lookupList },
  };
}

export function listParts(customerId: string, plantId: string | null): Omit<QueryCommandInput, 'TableName'> {
  return {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: {
      ':pk': plantId === null ? pk.customer(customerId) : pk.plant(plantId),
      ':prefix': skPrefix.part,
    },
  };
}

/** Sets revokedAt once (a second revoke keeps the first time); fails when the token does not exist. */
export function revokeToken(table: string, tokenId: string, revokedAt: string): UpdateCommandInput {
  return {
    TableName: table,
    Key: keys.maintenanceToken(tokenId),
    UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':at': revokedAt },
    ReturnValues: 'ALL_NEW',
  };
}

/** Takes the sealed token out while the link is unused and unexpired; one caller wins. */
export function redeemLink(table: string, linkHash: string, now: Date): UpdateCommandInput {
  return {
    TableName: table,
    Key: keys.tokenLink(linkHash),
    UpdateExpression: 'REMOVE sealedToken SET retrievedAt = :now',
    ConditionExpression: 'attribute_exists(sealedToken) AND expiresAt > :now',
    ExpressionAttributeValues: { ':now': now.toISOString() },
    ReturnValues: 'ALL_OLD',
  };
}

/** BatchWrite requests of at most 25 puts each; duplicates within one request are merged (last wins). */
export function batchPutParts(table: string, parts: readonly Part[]): BatchWriteCommandInput[] {
  const unique = new Map<string, Item>();
  for (const part of parts) {
    const item = partItem(part);
    unique.set(`${item.PK}|${item.SK}`, item);
  }
  const items = [...unique.values()];
  const requests: BatchWriteCommandInput[] = [];
  for (let i = 0; i < items.length; i += 25)
    requests.push({ RequestItems: { [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } });
  return requests;
}
