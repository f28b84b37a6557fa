// The maintenance repository port. The DynamoDB adapter (lib/adapters/dynamodb/maintenance.ts)
// implements it; lists are ordered (jobs by their date, tasks by createdDate, assets by tag number).
import type { DateRange } from './dates';
import type { PageWindow } from './paging';
import type { Asset, JobDone, JobPlanned, StockChange, StockLevel, Task, TaskStatus } from './records';

/** One page of records and the total the page belongs to. */
export interface Slice<T> {
  readonly items: readonly T[];
  readonly total: number;
}

/** Exact-match filters on a planned job's asset; every given one must match. */
export interface AssetFilter {
  readonly tagNumber?: string;
  readonly serialNumber?: string;
  readonly externalReference?: string;
}

/** What a retried task creation finds under its Idempotency-Key. */
export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly taskId: string;
  readonly createdAt: string;
}

export interface NewTaskWrite {
  readonly task: Task;
  /** Stored with the task in one transaction. */
  readonly idempotency?: {
    readonly callerId: string;
    readonly key: string;
    readonly requestHash: string;
    readonly expiresAt: string;
  };
}

export type TaskCreation =
  { readonly outcome: 'created' } | { readonly outcome: 'replayed'; readonly record: IdempotencyRecord };

export interface MaintenanceRepository {
  listJobsDone(plantId: string, range: DateRange, window: PageWindow): Promise<Slice<JobDone>>;
  listJobsPlanned(
    plantId: string,
    range: DateRange,
    filter: AssetFilter,
    window: PageWindow,
  ): Promise<Slice<JobPlanned>>;
  listAssets(plantId: string, window: PageWindow): Promise<Slice<Asset>>;
  listTasks(plantId: string, status: TaskStatus | undefined, window: PageWindow): Promise<Slice<Task>>;
  getAsset(plantId: string, tagNumber: string): Promise<Asset | undefined>;

  /** Imports: create or replace by id (tag number for assets), counters kept in step. Idempotent. */
  putJobsDone(plantId: string, jobs: readonly JobDone[]): Promise<void>;
  putJobsPlanned(plantId: string, jobs: readonly JobPlanned[]): Promise<void>;
  putAssets(plantId: string, assets: readonly Asset[]): Promise<void>;
  putTasks(plantId: string, tasks: readonly Task[]): Promise<void>;

  getIdempotency(plantId: string, callerId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Creates a new task (and its idempotency record) in one transaction.
   * @returns `replayed` with the stored record when another request stored the same key first.
   */
  createTask(write: NewTaskWrite): Promise<TaskCreation>;

  getStockLevel(plantId: string, partId: string): Promise<StockLevel | undefined>;
  /**
   * Writes the level and its history entry together, only if the stored version is still
   * `expectedVersion` (0: no level yet). @returns false when another write came first.
   */
  putStockLevel(level: StockLevel, change: StockChange, expectedVersion: number): Promise<boolean>;
  /** Oldest first. */
  listStockHistory(plantId: string, partId: string): Promise<StockChange[]>;
}
