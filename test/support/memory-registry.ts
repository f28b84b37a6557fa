// An in-memory Registry for unit tests of the auth and registry domain (the DynamoDB adapter has
// its own integration test on DynamoDB Local with the same expectations).
import { AppError } from '../../lib/core/errors';
import type { Agent, Customer, LookupList, MaintenanceToken, Part, Plant, QueryClient, SeedMarker, TokenLink } from '../../lib/registry/model';
import type { Registry } from '../../lib/registry/ports';

export function memoryRegistry(): Registry & { readonly links: Map<string, TokenLink> } {
  const customers = new Map<string, Customer>();
  const plants = new Map<string, Plant>();
  const agents = new Map<string, Agent>();
  const clients = new Map<string, QueryClient>();
  const tokens = new Map<string, MaintenanceToken>();
  const links = new Map<string, TokenLink>();
  const lookups = new Map<string, LookupList>();
  const parts = new Map<string, Part>();
  const seeds = new Map<string, SeedMarker>();

  function addUnder<T extends { customerId: string }>(map: Map<string, T>, id: string, value: T, what: string): void {
    if (map.has(id)) throw new AppError('CONFLICT', `${what} "${id}" already exists`);
    if (!customers.has(value.customerId)) throw new AppError('NOT_FOUND', `customer "${value.customerId}" does not exist`);
    map.set(id, value);
  }

  return {
    links,
    async createCustomer(c) {
      if (customers.has(c.customerId)) throw new AppError('CONFLICT', `customer "${c.customerId}" already exists`);
      customers.set(c.customerId, c);
    },
    getCustomer: async (id) => customers.get(id),
    listCustomers: async () => [...customers.values()],
    createPlant: async (p) => addUnder(plants, p.plantId, p, 'plant'),
    getPlant: async (id) => plants.get(id),
    listPlants: async (c) => [...plants.values()].filter((p) => p.customerId === c),
    createAgent: async (a) => addUnder(agents, a.agentId, a, 'agent'),
    getAgent: async (id) => agents.get(id),
    listAgents: async (c) => [...agents.values()].filter((a) => a.customerId === c),
    createClient: async (q) => addUnder(clients, q.clientId, q, 'client'),
    getClient: async (id) => clients.get(id),
    listClients: async (c) => [...clients.values()].filter((q) => q.customerId === c),
    async createMaintenanceToken(token, link) {
      if (!plants.has(token.plantId)) throw new Error('no plant');
      tokens.set(token.tokenId, token);
      links.set(link.linkHash, link);
    },
    getMaintenanceToken: async (id) => tokens.get(id),
    listMaintenanceTokens: async (p) => [...tokens.values()].filter((t) => t.plantId === p),
    async revokeMaintenanceToken(id, at) {
      const token = tokens.get(id);
      if (!token) throw new AppError('NOT_FOUND', `token "${id}" does not exist`);
      const revoked = { ...token, revokedAt: token.revokedAt ?? at };
      tokens.set(id, revoked);
      return revoked;
    },
    async redeemTokenLink(hash, now) {
      const link = links.get(hash);
      if (!link) return { outcome: 'unknown' };
      if (link.sealedToken === undefined) return { outcome: 'used' };
      if (Date.parse(link.expiresAt) <= now.getTime()) return { outcome: 'expired' };
      const { sealedToken, ...rest } = link;
      links.set(hash, { ...rest, retrievedAt: now.toISOString() });
      return { outcome: 'redeemed', link: { ...link, sealedToken } };
    },
    setLookupList: async (l) => void lookups.set(`${l.customerId}|${l.kind}`, l),
    getLookupList: async (c, k) => lookups.get(`${c}|${k}`),
    listLookupLists: async (c) => [...lookups.values()].filter((l) => l.customerId === c),
    putParts: async (ps) => ps.forEach((p) => parts.set(`${p.customerId}|${p.plantId}|${p.partNumber}`, p)),
    findPart: async (c, p, n) => parts.get(`${c}|${p}|${n}`) ?? parts.get(`${c}|null|${n}`),
    listParts: async (c, p) => [...parts.values()].filter((x) => x.customerId === c && x.plantId === p),
    getSeedMarker: async (n) => seeds.get(n),
    async putSeedMarker(m) {
      if (seeds.has(m.name)) return false;
      seeds.set(m.name, m);
      return true;
    },
  };
}
