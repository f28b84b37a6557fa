// An in-memory Registry (lib/registry/ports.ts) for fast unit tests of the logic above the port
// (authorizers, token issue and redemption, ingest's agent directory, maintenance's lookups and
// parts). It keeps the port's documented contract: CONFLICT on a taken id, NOT_FOUND for a child
// of an unknown customer, a link redeemed once, a revocation that keeps its first time. The
// DynamoDB adapter is held to the same contract on DynamoDB Local in test/integration.
import { AppError } from '../../../lib/core/errors';
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
} from '../../../lib/registry/model';
import type { LinkRedemption, Registry } from '../../../lib/registry/ports';

export interface FakeRegistry extends Registry {
  /** Every port call, in order, by method name (to assert what the logic asked for). */
  readonly calls: string[];
  /** The stored links, by link hash (to look at a link after a redemption). */
  readonly links: ReadonlyMap<string, TokenLink>;
}

const byKey = <T>(items: Iterable<T>, key: (t: T) => string): T[] =>
  [...items].sort((a, b) => key(a).localeCompare(key(b)));

export function fakeRegistry(): FakeRegistry {
  const customers = new Map<string, Customer>();
  const plants = new Map<string, Plant>();
  const agents = new Map<string, Agent>();
  const clients = new Map<string, QueryClient>();
  const tokens = new Map<string, MaintenanceToken>();
  const links = new Map<string, TokenLink>();
  const lookups = new Map<string, LookupList>();
  const parts = new Map<string, Part>();
  const seeds = new Map<string, SeedMarker>();
  const calls: string[] = [];

  /** @throws AppError CONFLICT / NOT_FOUND as the adapter's transaction does. */
  function createUnder<T extends { customerId: string }>(map: Map<string, T>, what: string, id: string, item: T): void {
    if (map.has(id)) throw new AppError('CONFLICT', `${what} "${id}" already exists`, { field: what, value: id });
    if (!customers.has(item.customerId))
      throw new AppError('NOT_FOUND', `customer "${item.customerId}" does not exist`, {
        field: 'customer',
        value: item.customerId,
      });
    map.set(id, item);
  }
  const partKey = (customerId: string, plantId: string | null, partNumber: string) =>
    `${customerId}\u0000${plantId ?? ''}\u0000${partNumber}`;

  const registry: Registry = {
    async createCustomer(customer) {
      if (customers.has(customer.customerId))
        throw new AppError('CONFLICT', `customer "${customer.customerId}" already exists`, {
          field: 'customer',
          value: customer.customerId,
        });
      customers.set(customer.customerId, customer);
    },
    getCustomer: async (customerId) => customers.get(customerId),
    listCustomers: async () => byKey(customers.values(), (c) => c.customerId),

    createPlant: async (plant) => createUnder(plants, 'plant', plant.plantId, plant),
    getPlant: async (plantId) => plants.get(plantId),
    listPlants: async (customerId) =>
      byKey(
        [...plants.values()].filter((p) => p.customerId === customerId),
        (p) => p.plantId,
      ),

    createAgent: async (agent) => createUnder(agents, 'agent', agent.agentId, agent),
    getAgent: async (agentId) => agents.get(agentId),
    listAgents: async (customerId) =>
      byKey(
        [...agents.values()].filter((a) => a.customerId === customerId),
        (a) => a.agentId,
      ),

    createClient: async (client) => createUnder(clients, 'client', client.clientId, client),
    getClient: async (clientId) => clients.get(clientId),
    listClients: async (customerId) =>
      byKey(
        [...clients.values()].filter((c) => c.customerId === customerId),
        (c) => c.clientId,
      ),

    async createMaintenanceToken(token, link) {
      tokens.set(token.tokenId, token);
      links.set(link.linkHash, link);
    },
    getMaintenanceToken: async (tokenId) => tokens.get(tokenId),
    listMaintenanceTokens: async (plantId) =>
      byKey(
        [...tokens.values()].filter((t) => t.plantId === plantId),
        (t) => t.createdAt,
      ),
    async revokeMaintenanceToken(tokenId, revokedAt) {
      const token = tokens.get(tokenId);
      if (!token)
        throw new AppError('NOT_FOUND', `token "${tokenId}" does not exist`, { field: 'token', value: tokenId });
      const revoked = { ...token, revokedAt: token.revokedAt ?? revokedAt };
      tokens.set(tokenId, revoked);
      return revoked;
    },
    async redeemTokenLink(linkHash, now): Promise<LinkRedemption> {
      const link = links.get(linkHash);
      if (!link) return { outcome: 'unknown' };
      if (link.sealedToken === undefined) return { outcome: link.retrievedAt !== undefined ? 'used' : 'expired' };
      if (Date.parse(link.expiresAt) <= now.getTime())
        return { outcome: link.retrievedAt !== undefined ? 'used' : 'expired' };
      const { sealedToken, ...rest } = link;
      links.set(linkHash, { ...rest, retrievedAt: now.toISOString() });
      return { outcome: 'redeemed', link: { ...link, sealedToken } };
    },

    async setLookupList(list) {
      lookups.set(`${list.customerId}\u0000${list.kind}`, list);
    },
    getLookupList: async (customerId, kind: LookupKind) => lookups.get(`${customerId}\u0000${kind}`),
    listLookupLists: async (customerId) =>
      byKey(
        [...lookups.values()].filter((l) => l.customerId === customerId),
        (l) => l.kind,
      ),

    async putParts(list) {
      for (const part of list) parts.set(partKey(part.customerId, part.plantId, part.partNumber), part);
    },
    findPart: async (customerId, plantId, partNumber) =>
      parts.get(partKey(customerId, plantId, partNumber)) ?? parts.get(partKey(customerId, null, partNumber)),
    listParts: async (customerId, plantId) =>
      byKey(
        [...parts.values()].filter((p) => p.customerId === customerId && p.plantId === plantId),
        (p) => p.partNumber,
      ),

    getSeedMarker: async (name) => seeds.get(name),
    async putSeedMarker(marker) {
      if (seeds.has(marker.name)) return false;
      seeds.set(marker.name, marker);
      return true;
    },
  };

  // Every method records its name before it runs, so tests can assert which reads a decision made.
  const recorded = Object.fromEntries(
    Object.entries(registry).map(([name, fn]) => [
      name,
      (...args: unknown[]) => (calls.push(name), (fn as (...a: unknown[]) => unknown)(...args)),
    ]),
  ) as unknown as Registry;
  return Object.assign(recorded, { calls, links });
}
