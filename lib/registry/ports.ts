// The registry port: what the domain needs from storage. The DynamoDB adapter implements it
// (lib/adapters/dynamodb/registry.ts); tests use the same adapter on DynamoDB Local.
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
} from './model';

/** The result of redeeming a one-time link: the sealed token once, then `used`. */
export type LinkRedemption =
  | { readonly outcome: 'redeemed'; readonly link: TokenLink & { readonly sealedToken: string } }
  | { readonly outcome: 'used' | 'expired' | 'unknown' };

export interface Registry {
  /** @throws AppError CONFLICT when the id exists. */
  createCustomer(customer: Customer): Promise<void>;
  getCustomer(customerId: string): Promise<Customer | undefined>;
  listCustomers(): Promise<Customer[]>;

  /** @throws AppError CONFLICT when the id exists, NOT_FOUND when the customer does not. */
  createPlant(plant: Plant): Promise<void>;
  /** One strongly consistent GetItem (ingest and authorizers call it on every message / request). */
  getPlant(plantId: string): Promise<Plant | undefined>;
  listPlants(customerId: string): Promise<Plant[]>;

  /** @throws AppError CONFLICT when the id exists, NOT_FOUND when the customer does not. */
  createAgent(agent: Agent): Promise<void>;
  /** One GetItem. */
  getAgent(agentId: string): Promise<Agent | undefined>;
  listAgents(customerId: string): Promise<Agent[]>;

  /** @throws AppError CONFLICT when the id exists, NOT_FOUND when the customer does not. */
  createClient(client: QueryClient): Promise<void>;
  getClient(clientId: string): Promise<QueryClient | undefined>;
  listClients(customerId: string): Promise<QueryClient[]>;

  /** Stores a new token and its one-time link together (both or neither). */
  createMaintenanceToken(token: MaintenanceToken, link: TokenLink): Promise<void>;
  getMaintenanceToken(tokenId: string): Promise<MaintenanceToken | undefined>;
  listMaintenanceTokens(plantId: string): Promise<MaintenanceToken[]>;
  /** @throws AppError NOT_FOUND for an unknown token. Revoking twice keeps the first time. */
  revokeMaintenanceToken(tokenId: string, revokedAt: string): Promise<MaintenanceToken>;
  /** Atomically takes the sealed token out of the link (a second call sees `used`). */
  redeemTokenLink(linkHash: string, now: Date): Promise<LinkRedemption>;

  /** Replaces the whole list of one kind. */
  setLookupList(list: LookupList): Promise<void>;
  getLookupList(customerId: string, kind: LookupKind): Promise<LookupList | undefined>;
  listLookupLists(customerId: string): Promise<LookupList[]>;

  /** Creates or replaces parts (idempotent: the key is scope + part number). */
  putParts(parts: readonly Part[]): Promise<void>;
  /** The plant's part, else the company-wide part of that number. */
  findPart(customerId: string, plantId: string, partNumber: string): Promise<Part | undefined>;
  /** Parts of one plant (plantId) or the company-wide ones (plantId null). */
  listParts(customerId: string, plantId: string | null): Promise<Part[]>;

  getSeedMarker(name: string): Promise<SeedMarker | undefined>;
  /** @returns false when another run stored the marker first. */
  putSeedMarker(marker: SeedMarker): Promise<boolean>;
}
