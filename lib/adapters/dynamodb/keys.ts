// Every key of the single main table is built here (STYLE.md; layout in docs/dynamodb.md).
// Partitions: CUSTOMER#<id> (customer, its lookup lists and company-wide parts), PLANT#<id> (plant,
// its parts; later its jobs, assets, tasks and stock levels), and one partition per agent,
// client, token and link for single-GetItem lookups. GSI1 lists a customer's or a plant's children.

export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

export interface IndexKeys {
  readonly GSI1PK?: string;
  readonly GSI1SK?: string;
  readonly GSI2PK?: string;
  readonly GSI2SK?: string;
}

/** Main-table partition values; ids never contain '#', so the prefixes cannot collide. */
export const pk = {
  customer: (customerId: string) => `CUSTOMER#${customerId}`,
  plant: (plantId: string) => `PLANT#${plantId}`,
  agent: (agentId: string) => `AGENT#${agentId}`,
  client: (clientId: string) => `CLIENT#${clientId}`,
  maintenanceToken: (tokenId: string) => `MTOKEN#${tokenId}`,
  tokenLink: (linkHash: string) => `TOKENLINK#${linkHash}`,
  seed: (name: string) => `SEED#${name}`,
} as const;

export const keys = {
  customer: (customerId: string): ItemKey => ({ PK: pk.customer(customerId), SK: 'CUSTOMER' }),
  plant: (plantId: string): ItemKey => ({ PK: pk.plant(plantId), SK: 'PLANT' }),
  agent: (agentId: string): ItemKey => ({ PK: pk.agent(agentId), SK: 'AGENT' }),
  client: (clientId: string): ItemKey => ({ PK: pk.client(clientId), SK: 'CLIENT' }),
  maintenanceToken: (tokenId: string): ItemKey => ({ PK: pk.maintenanceToken(tokenId), SK: 'MTOKEN' }),
  tokenLink: (linkHash: string): ItemKey => ({ PK: pk.tokenLink(linkHash), SK: 'TOKENLINK' }),
  lookupList: (customerId: string, kind: string): ItemKey => ({ PK: pk.customer(customerId), SK: `LOOKUP#${kind}` }),
  /** Company-wide parts live in the customer's partition, plant parts in the plant's. */
  part: (customerId: string, plantId: string | null, partNumber: string): ItemKey => ({
    PK: plantId === null ? pk.customer(customerId) : pk.plant(plantId),
    SK: `PART#${partNumber}`,
  }),
  seed: (name: string): ItemKey => ({ PK: pk.seed(name), SK: 'SEED' }),
} as const;

/** Sort-key prefixes for Query with begins_with. */
export const skPrefix = {
  lookupList: 'LOOKUP#',
  part: 'PART#',
} as const;

/** GSI1: listings. GSI1PK names the owner, GSI1SK the child kind then its id. */
export const gsi1 = {
  customers: (): string => 'CUSTOMERS',
  customerEntry: (customerId: string): IndexKeys => ({ GSI1PK: 'CUSTOMERS', GSI1SK: `CUSTOMER#${customerId}` }),
  plantOf: (customerId: string, plantId: string): IndexKeys => ({
    GSI1PK: pk.customer(customerId),
    GSI1SK: `PLANT#${plantId}`,
  }),
  agentOf: (customerId: string, agentId: string): IndexKeys => ({
    GSI1PK: pk.customer(customerId),
    GSI1SK: `AGENT#${agentId}`,
  }),
  clientOf: (customerId: string, clientId: string): IndexKeys => ({
    GSI1PK: pk.customer(customerId),
    GSI1SK: `CLIENT#${clientId}`,
  }),
  tokenOf: (plantId: string, createdAt: string, tokenId: string): IndexKeys => ({
    GSI1PK: pk.plant(plantId),
    GSI1SK: `MTOKEN#${createdAt}#${tokenId}`,
  }),
  prefix: { plant: 'PLANT#', agent: 'AGENT#', client: 'CLIENT#', token: 'MTOKEN#', customer: 'CUSTOMER#' },
} as const;

/** DynamoDB TTL attribute value (epoch seconds) for an ISO time. */
export function ttlOf(iso: string): number {
  return Math.ceil(Date.parse(iso) / 1000);
}

/** Ingest: the per-message ledger (dedupe of redeliveries) and device liveness. */
export const ingestKeys = {
  ledger: (agentId: string, messageId: string): ItemKey => ({ PK: `INGEST#${agentId}#${messageId}`, SK: 'INGEST' }),
  device: (uid: string): ItemKey => ({ PK: `DEVICE#${uid}`, SK: 'DEVICE' }),
  /** GSI1: a plant's devices. */
  deviceOfPlant: (plantId: string, uid: string): IndexKeys => ({ GSI1PK: pk.plant(plantId), GSI1SK: `DEVICE#${uid}` }),
  /** GSI2: a customer's devices ordered by the time the next keep-alive is due (silent ones first). */
  deviceDue: (customerId: string, dueAt: string, uid: string): IndexKeys => ({
    GSI2PK: `LIVENESS#${customerId}`,
    GSI2SK: `${dueAt}#${uid}`,
  }),
  livenessPartition: (customerId: string): string => `LIVENESS#${customerId}`,
} as const;

/**
 * Maintenance API (issue 6; layout and access patterns in docs/dynamodb.md, "Maintenance").
 * Records live in the plant's partition under a stable id key; date-ordered listings are GSI
 * entries `<date>#<id>` under per-plant collection partitions; per-day and per-month counters
 * (also in the plant's partition) give totals and page positions without reading the records.
 */
export const maintenanceKeys = {
  jobDone: (plantId: string, jobId: string): ItemKey => ({ PK: pk.plant(plantId), SK: `JOBDONE#${jobId}` }),
  jobPlanned: (plantId: string, jobId: string): ItemKey => ({ PK: pk.plant(plantId), SK: `JOBPLANNED#${jobId}` }),
  asset: (plantId: string, tagNumber: string): ItemKey => ({ PK: pk.plant(plantId), SK: `ASSET#${tagNumber}` }),
  task: (plantId: string, taskId: string): ItemKey => ({ PK: pk.plant(plantId), SK: `TASK#${taskId}` }),
  stockLevel: (plantId: string, partId: string): ItemKey => ({ PK: pk.plant(plantId), SK: `STOCK#${partId}` }),
  /** One item per change, version zero-padded so the history sorts oldest first. */
  stockChange: (plantId: string, partId: string, version: number): ItemKey => ({
    PK: pk.plant(plantId),
    SK: `STOCKHIST#${partId}#${String(version).padStart(10, '0')}`,
  }),
  stockHistoryPrefix: (partId: string): string => `STOCKHIST#${partId}#`,
  /** Idempotency-Key of a task creation, scoped to the plant and the caller (token or client). */
  idempotency: (plantId: string, callerId: string, key: string): ItemKey => ({
    PK: pk.plant(plantId),
    SK: `IDEMPOTENCY#${callerId}#${key}`,
  }),
  /** Total of a collection without dates (assets). */
  total: (plantId: string, collection: string): ItemKey => ({ PK: pk.plant(plantId), SK: `CNT#${collection}` }),
  dayCounter: (plantId: string, collection: string, day: string): ItemKey => ({
    PK: pk.plant(plantId),
    SK: `CNT#${collection}#D#${day}`,
  }),
  monthCounter: (plantId: string, collection: string, month: string): ItemKey => ({
    PK: pk.plant(plantId),
    SK: `CNT#${collection}#M#${month}`,
  }),
  dayCounterSk: (collection: string, day: string): string => `CNT#${collection}#D#${day}`,
  monthCounterSk: (collection: string, month: string): string => `CNT#${collection}#M#${month}`,
  assetPrefix: 'ASSET#',
  /** GSI1/GSI2 partition of a date-ordered collection: jobs done, planned, tasks (all or one status). */
  collection: (plantId: string, collection: string): string => `${pk.plant(plantId)}#${collection}`,
  /** Sort key of a record in its collection: date first, so a page is one key range. */
  position: (date: string, id: string): string => `${date}#${id}`,
  /** Planned jobs of one asset (GSI2), and assets by serial number (GSI1) or external reference (GSI2). */
  plannedOfAsset: (plantId: string, tagNumber: string): string => `${pk.plant(plantId)}#JOBPLANNED#TAG#${tagNumber}`,
  assetBySerial: (plantId: string, serialNumber: string): string => `${pk.plant(plantId)}#ASSET#SERIAL#${serialNumber}`,
  assetByReference: (plantId: string, externalReference: string): string =>
    `${pk.plant(plantId)}#ASSET#REF#${externalReference}`,
} as const;
