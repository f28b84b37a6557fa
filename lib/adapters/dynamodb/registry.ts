// The registry port on the main DynamoDB table. Request parameters are built by pure functions
// (registry-params.ts); this module sends them and translates SDK errors into AppErrors.
import { DynamoDBClient, TransactionCanceledException, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../../core/config';
import { AppError } from '../../core/errors';
import type { Agent, Customer, LookupKind, LookupList, MaintenanceToken, Part, Plant, QueryClient, SeedMarker, TokenLink } from '../../registry/model';
import type { LinkRedemption, Registry } from '../../registry/ports';
import { documentClient } from './client';
import { keys } from './keys';
import * as params from './registry-params';

const KEY_ATTRIBUTES = ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'Type', 'ExpiresAt'];

function strip<T>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  const copy: Record<string, unknown> = { ...item };
  for (const key of KEY_ATTRIBUTES) delete copy[key];
  return copy as T;
}

function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/** Which items of a cancelled transaction failed their condition. */
function failedConditions(error: unknown): number[] | undefined {
  if (!(error instanceof TransactionCanceledException) && (error as { name?: string })?.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
  return reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}

export function dynamoDbRegistry(client: DynamoDBDocumentClient, tableName: string): Registry {
  const table = tableName;

  async function get<T>(key: { PK: string; SK: string }): Promise<T | undefined> {
    const out = await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
    return strip<T>(out.Item);
  }

  async function queryAll<T>(input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
    const items: T[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await client.send(new QueryCommand({ ...input, TableName: table, ExclusiveStartKey: start }));
      for (const item of out.Items ?? []) items.push(strip<T>(item) as T);
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  async function createUnder(item: ReturnType<typeof params.plantItem>, customerId: string, what: string, id: string): Promise<void> {
    try {
      await client.send(new TransactWriteCommand(params.createUnderCustomer(table, item, customerId)));
    } catch (error) {
      const failed = failedConditions(error);
      if (failed?.includes(0)) throw new AppError('CONFLICT', `${what} "${id}" already exists`, { field: what, value: id }, { cause: error });
      if (failed?.includes(1)) throw new AppError('NOT_FOUND', `customer "${customerId}" does not exist`, { field: 'customer', value: customerId }, { cause: error });
      throw error;
    }
  }

  return {
    async createCustomer(customer: Customer) {
      try {
        await client.send(new PutCommand(params.putNew(table, params.customerItem(customer))));
      } catch (error) {
        if (isConditionFailure(error)) throw new AppError('CONFLICT', `customer "${customer.customerId}" already exists`, { field: 'customer', value: customer.customerId }, { cause: error });
        throw error;
      }
    },
    getCustomer: (customerId) => get<Customer>(keys.customer(customerId)),
    listCustomers: () => queryAll<Customer>(params.listCustomers()),

    createPlant: (plant: Plant) => createUnder(params.plantItem(plant), plant.customerId, 'plant', plant.plantId),
    getPlant: (plantId) => get<Plant>(keys.plant(plantId)),
    listPlants: (customerId) => queryAll<Plant>(params.listChildren(customerId, 'plant')),

    createAgent: (agent: Agent) => createUnder(params.agentItem(agent), agent.customerId, 'agent', agent.agentId),
    getAgent: (agentId) => get<Agent>(keys.agent(agentId)),
    listAgents: (customerId) => queryAll<Agent>(params.listChildren(customerId, 'agent')),

    createClient: (queryClient: QueryClient) => createUnder(params.clientItem(queryClient), queryClient.customerId, 'client', queryClient.clientId),
    getClient: (clientId) => get<QueryClient>(keys.client(clientId)),
    listClients: (customerId) => queryAll<QueryClient>(params.listChildren(customerId, 'client')),

    async createMaintenanceToken(token: MaintenanceToken, link: TokenLink) {
      await client.send(new TransactWriteCommand(params.createToken(table, token, link)));
    },
    getMaintenanceToken: (tokenId) => get<MaintenanceToken>(keys.maintenanceToken(tokenId)),
    listMaintenanceTokens: (plantId) => queryAll<MaintenanceToken>(params.listTokens(plantId)),
    async revokeMaintenanceToken(tokenId: string, revokedAt: string) {
      try {
        const out = await client.send(new UpdateCommand(params.revokeToken(table, tokenId, revokedAt)));
        return strip<MaintenanceToken>(out.Attributes) as MaintenanceToken;
      } catch (error) {
        if (isConditionFailure(error)) throw new AppError('NOT_FOUND', `token "${tokenId}" does not exist`, { field: 'token', value: tokenId }, { cause: error });
        throw error;
      }
    },
    async redeemTokenLink(linkHash: string, now: Date): Promise<LinkRedemption> {
      try {
        const out = await client.send(new UpdateCommand(params.redeemLink(table, linkHash, now)));
        const link = strip<TokenLink>(out.Attributes);
        if (link?.sealedToken) return { outcome: 'redeemed', link: { ...link, sealedToken: link.sealedToken } };
        return { outcome: 'unknown' };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const link = await get<TokenLink>(keys.tokenLink(linkHash));
        if (!link) return { outcome: 'unknown' };
        return { outcome: link.retrievedAt !== undefined ? 'used' : 'expired' };
      }
    },

    async setLookupList(list: LookupList) {
      await client.send(new PutCommand({ TableName: table, Item: params.lookupItem(list) }));
    },
    getLookupList: (customerId, kind: LookupKind) => get<LookupList>(keys.lookupList(customerId, kind)),
    listLookupLists: (customerId) => queryAll<LookupList>(params.listLookups(customerId)),

    async putParts(parts: readonly Part[]) {
      for (const request of params.batchPutParts(table, parts)) {
        let pending = request;
        for (let attempt = 0; pending; attempt++) {
          const out = await client.send(new BatchWriteCommand(pending));
          const left = out.UnprocessedItems?.[table];
          if (!left || left.length === 0) break;
          if (attempt >= 8) throw new AppError('SERVICE_UNAVAILABLE', 'DynamoDB kept throttling the parts import; run it again (it is idempotent)');
          await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
          pending = { RequestItems: { [table]: left } };
        }
      }
    },
    async findPart(customerId, plantId, partNumber) {
      return (await get<Part>(keys.part(customerId, plantId, partNumber))) ?? (await get<Part>(keys.part(customerId, null, partNumber)));
    },
    listParts: (customerId, plantId) => queryAll<Part>(params.listParts(customerId, plantId)),

    getSeedMarker: (name) => get<SeedMarker>(keys.seed(name)),
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
export function openRegistry(options: { tableName: string; endpoint?: string; region: string }): { registry: Registry; close(): void } {
  const raw = new DynamoDBClient(
    options.endpoint
      ? { endpoint: options.endpoint, region: options.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 2 }
      : { region: options.region },
  );
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  return { registry: dynamoDbRegistry(doc, options.tableName), close: () => raw.destroy() };
}

