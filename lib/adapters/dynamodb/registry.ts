// The registry port on the main DynamoDB table. Request parameters are built by pure functions
// (registry-params.ts); this module sends them, reads items through their schemas
// (item-schemas.ts) and translates refused conditions into AppErrors.
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type BatchWriteCommandInput,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod';
import { config } from '../../core/config';
import { AppError } from '../../core/errors';
import type {
  Agent,
  Customer,
  LookupKind,
  LookupList,
  MaintenanceToken,
  Part,
  Plant,
  QueryClient,
  SeedMarker,
  TokenLink,
} from '../../registry/model';
import type { LinkRedemption, Registry } from '../../registry/ports';
import { DEFAULT_ROUNDS, PartialBatchError, sendUntilDone, type RoundPolicy } from '../partial-batch';
import { createDynamoDbClients, documentClient, type DynamoDbTarget } from './client';
import * as item from './item-schemas';
import { parseItem, parseOptionalItem } from './items';
import { keys, type ItemKey } from './keys';
import * as params from './registry-params';
import { cancellationCodes, failedConditionIndexes, isConditionFailure } from './transactions';

type BatchWrites = NonNullable<BatchWriteCommandInput['RequestItems']>;
type WriteRequest = NonNullable<BatchWrites[string]>[number];

export function dynamoDbRegistry(
  client: DynamoDBDocumentClient,
  tableName: string,
  rounds: RoundPolicy = DEFAULT_ROUNDS,
): Registry {
  const table = tableName;

  async function get<T>(schema: z.ZodType<T>, kind: string, key: ItemKey): Promise<T | undefined> {
    const out = await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
    return parseOptionalItem(schema, kind, out.Item);
  }

  async function queryAll<T>(
    schema: z.ZodType<T>,
    kind: string,
    input: Omit<QueryCommandInput, 'TableName'>,
  ): Promise<T[]> {
    const items: T[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await client.send(new QueryCommand({ ...input, TableName: table, ExclusiveStartKey: start }));
      for (const found of out.Items ?? []) items.push(parseItem(schema, kind, found));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  /** @throws AppError CONFLICT when the item exists, NOT_FOUND when its customer does not. */
  async function createUnder(created: params.Item, customerId: string, what: string, id: string): Promise<void> {
    try {
      await client.send(new TransactWriteCommand(params.createUnderCustomer(table, created, customerId)));
    } catch (error) {
      const failed = failedConditionIndexes(cancellationCodes(error) ?? []);
      if (failed.includes(0))
        throw new AppError('CONFLICT', `${what} "${id}" already exists`, { field: what, value: id }, { cause: error });
      if (failed.includes(1))
        throw new AppError(
          'NOT_FOUND',
          `customer "${customerId}" does not exist`,
          { field: 'customer', value: customerId },
          { cause: error },
        );
      throw error;
    }
  }

  /** Unprocessed items of a BatchWriteItem (throttling) are sent again; the parts import is idempotent. */
  async function batchWrite(request: BatchWrites): Promise<void> {
    const writes = request[table] ?? [];
    try {
      await sendUntilDone(
        'parts import',
        writes,
        async (pending: readonly WriteRequest[]) => {
          const out = await client.send(new BatchWriteCommand({ RequestItems: { [table]: [...pending] } }));
          return out.UnprocessedItems?.[table] ?? [];
        },
        rounds,
      );
    } catch (error) {
      if (error instanceof PartialBatchError)
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'DynamoDB kept throttling the parts import; run it again (it is idempotent)',
          undefined,
          { cause: error },
        );
      throw error;
    }
  }

  return {
    async createCustomer(customer: Customer) {
      try {
        await client.send(new PutCommand(params.putNew(table, params.customerItem(customer))));
      } catch (error) {
        if (isConditionFailure(error))
          throw new AppError(
            'CONFLICT',
            `customer "${customer.customerId}" already exists`,
            { field: 'customer', value: customer.customerId },
            { cause: error },
          );
        throw error;
      }
    },
    getCustomer: (customerId) => get(item.customerItem, 'Customer', keys.customer(customerId)),
    listCustomers: () => queryAll(item.customerItem, 'Customer', params.listCustomers()),

    createPlant: (plant: Plant) => createUnder(params.plantItem(plant), plant.customerId, 'plant', plant.plantId),
    getPlant: (plantId) => get(item.plantItem, 'Plant', keys.plant(plantId)),
    listPlants: (customerId) => queryAll(item.plantItem, 'Plant', params.listChildren(customerId, 'plant')),

    createAgent: (agent: Agent) => createUnder(params.agentItem(agent), agent.customerId, 'agent', agent.agentId),
    getAgent: (agentId) => get(item.agentItem, 'Agent', keys.agent(agentId)),
    listAgents: (customerId) => queryAll(item.agentItem, 'Agent', params.listChildren(customerId, 'agent')),

    createClient: (queryClient: QueryClient) =>
      createUnder(params.clientItem(queryClient), queryClient.customerId, 'client', queryClient.clientId),
    getClient: (clientId) => get(item.queryClientItem, 'QueryClient', keys.client(clientId)),
    listClients: (customerId) =>
      queryAll(item.queryClientItem, 'QueryClient', params.listChildren(customerId, 'client')),

    async createMaintenanceToken(token: MaintenanceToken, link: TokenLink) {
      await client.send(new TransactWriteCommand(params.createToken(table, token, link)));
    },
    getMaintenanceToken: (tokenId) =>
      get(item.maintenanceTokenItem, 'MaintenanceToken', keys.maintenanceToken(tokenId)),
    listMaintenanceTokens: (plantId) =>
      queryAll(item.maintenanceTokenItem, 'MaintenanceToken', params.listTokens(plantId)),
    async revokeMaintenanceToken(tokenId: string, revokedAt: string) {
      try {
        const out = await client.send(new UpdateCommand(params.revokeToken(table, tokenId, revokedAt)));
        return parseItem(item.maintenanceTokenItem, 'MaintenanceToken', out.Attributes ?? {});
      } catch (error) {
        if (isConditionFailure(error))
          throw new AppError(
            'NOT_FOUND',
            `token "${tokenId}" does not exist`,
            { field: 'token', value: tokenId },
            { cause: error },
          );
        throw error;
      }
    },
    async redeemTokenLink(linkHash: string, now: Date): Promise<LinkRedemption> {
      try {
        const out = await client.send(new UpdateCommand(params.redeemLink(table, linkHash, now)));
        const link = parseOptionalItem(item.tokenLinkItem, 'TokenLink', out.Attributes);
        if (link?.sealedToken) return { outcome: 'redeemed', link: { ...link, sealedToken: link.sealedToken } };
        return { outcome: 'unknown' };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const link = await get(item.tokenLinkItem, 'TokenLink', keys.tokenLink(linkHash));
        if (!link) return { outcome: 'unknown' };
        return { outcome: link.retrievedAt !== undefined ? 'used' : 'expired' };
      }
    },

    async setLookupList(list: LookupList) {
      await client.send(new PutCommand({ TableName: table, Item: params.lookupItem(list) }));
    },
    getLookupList: (customerId, kind: LookupKind) =>
      get(item.lookupListItem, 'LookupList', keys.lookupList(customerId, kind)),
    listLookupLists: (customerId) => queryAll(item.lookupListItem, 'LookupList', params.listLookups(customerId)),

    async putParts(parts: readonly Part[]) {
      for (const request of params.batchPutParts(table, parts)) await batchWrite(request.RequestItems ?? {});
    },
    async findPart(customerId, plantId, partNumber) {
      return (
        (await get(item.partItem, 'Part', keys.part(customerId, plantId, partNumber))) ??
        (await get(item.partItem, 'Part', keys.part(customerId, null, partNumber)))
      );
    },
    listParts: (customerId, plantId) => queryAll(item.partItem, 'Part', params.listParts(customerId, plantId)),

    getSeedMarker: (name) => get(item.seedMarkerItem, 'SeedMarker', keys.seed(name)),
    async putSeedMarker(marker: SeedMarker) {
      try {
        await client.send(new PutCommand(params.putNew(table, params.seedItem(marker))));
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}

let fromConfig: Registry | undefined;

/** The registry of the running function (main table from configuration, one client per container). */
export function registry(): Registry {
  fromConfig ??= dynamoDbRegistry(documentClient(), config().MAIN_TABLE);
  return fromConfig;
}

/** For the admin CLI: a registry on an explicit endpoint (DynamoDB Local) or the default AWS chain. */
export function openRegistry(options: { tableName: string } & DynamoDbTarget): { registry: Registry; close(): void } {
  const clients = createDynamoDbClients(options);
  return { registry: dynamoDbRegistry(clients.doc, options.tableName), close: clients.close };
}
