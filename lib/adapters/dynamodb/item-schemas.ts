// The stored shape of every item the DynamoDB adapters read back (layout: docs/dynamodb.md).
// Each schema is typed against the domain's record, so a record field added in the domain and
// forgotten here fails the type check. Maintenance records reuse the domain's own schemas.
import { z } from 'zod';
import type { IdempotencyRecord } from '../../maintenance/ports';
import type { StockChange, StockLevel } from '../../maintenance/records';
import {
  LOOKUP_KINDS,
  type Agent,
  type Customer,
  type LookupList,
  type MaintenanceToken,
  type Part,
  type Plant,
  type QueryClient,
  type SeedMarker,
  type TokenLink,
} from '../../registry/model';

export {
  assetRecord as assetItem,
  jobDoneRecord as jobDoneItem,
  jobPlannedRecord as jobPlannedItem,
  taskRecord as taskItem,
} from '../../maintenance/records';

const text = z.string();

export const customerItem: z.ZodType<Customer> = z.object({ customerId: text, name: text, createdAt: text });
export const plantItem: z.ZodType<Plant> = z.object({ plantId: text, customerId: text, name: text, createdAt: text });
export const agentItem: z.ZodType<Agent> = z.object({ agentId: text, customerId: text, name: text, createdAt: text });
export const queryClientItem: z.ZodType<QueryClient> = z.object({
  clientId: text,
  customerId: text,
  name: text,
  plantIds: z.array(text).nullable(),
  secretHash: text.optional(),
  idp: z.enum(['local', 'cognito']),
  createdAt: text,
});
export const maintenanceTokenItem: z.ZodType<MaintenanceToken> = z.object({
  tokenId: text,
  plantId: text,
  customerId: text,
  tokenHash: text,
  label: text,
  createdAt: text,
  expiresAt: text,
  revokedAt: text.optional(),
});
export const tokenLinkItem: z.ZodType<TokenLink> = z.object({
  linkHash: text,
  tokenId: text,
  plantId: text,
  sealedToken: text.optional(),
  createdAt: text,
  expiresAt: text,
  retrievedAt: text.optional(),
});
export const lookupListItem: z.ZodType<LookupList> = z.object({
  customerId: text,
  kind: z.enum(LOOKUP_KINDS),
  values: z.array(text),
  updatedAt: text,
});
export const partItem: z.ZodType<Part> = z.object({
  customerId: text,
  plantId: text.nullable(),
  partNumber: text,
  description: text,
  unit: text.optional(),
});
export const seedMarkerItem: z.ZodType<SeedMarker> = z.object({
  name: text,
  createdAt: text,
  details: z.record(text, text),
});

export const stockLevelItem: z.ZodType<StockLevel> = z.object({
  plantId: text,
  partId: text,
  quantity: z.number(),
  unit: text.nullable(),
  remark: text.nullable(),
  isShort: z.boolean(),
  version: z.number().int(),
  updatedAt: text,
  updatedBy: text,
});
export const stockChangeItem: z.ZodType<StockChange> = z.object({
  plantId: text,
  partId: text,
  version: z.number().int(),
  at: text,
  by: text,
  oldQuantity: z.number().nullable(),
  newQuantity: z.number(),
  oldUnit: text.nullable(),
  newUnit: text.nullable(),
  remark: text.nullable(),
  isShort: z.boolean(),
});

/** An Idempotency-Key record with its TTL (epoch seconds; TTL deletes late, so it is checked on read). */
export const idempotencyItem: z.ZodType<IdempotencyRecord & { ExpiresAt: number }> = z.object({
  requestHash: text,
  taskId: text,
  createdAt: text,
  ExpiresAt: z.number(),
});

/** The revision that guards read-modify-write of a maintenance record (absent on items written before it). */
export const revisionItem = z.object({ Rev: z.number().int().min(0).default(0) });

/** A day, month or total counter as counterQuery projects it (SK, n); an item without n counts 0. */
export const counterItem = z.object({ SK: text, n: z.number().default(0) });

/** The ingest ledger's claim status as the ledger's BatchGet projects it. */
export const ledgerStatusItem = z.object({ AgentId: text, MessageId: text, Status: z.enum(['pending', 'done']) });

/** A device's liveness item. */
export const deviceItem = z.object({
  PK: text.startsWith('DEVICE#'),
  AgentId: text,
  DeviceId: text,
  PlantId: text,
  LastSeen: text,
  IntervalMs: z.number().nullable().default(null),
  DueAt: text,
  MessagesSeen: z.number().default(0),
});
