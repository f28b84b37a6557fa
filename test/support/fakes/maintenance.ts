// An in-memory MaintenanceRepository (lib/maintenance/ports.ts) for fast unit tests of tasks,
// stock levels and the lists. It keeps the port's contract: lists ordered (jobs by date, tasks by
// createdDate, assets by tag number) with the total beside the page, a task and its idempotency
// record stored together (a key stored first makes the second creation `replayed`), a stock level
// written only at the expected version. Hooks let a test put another writer between the service's
// read and its write, the races the DynamoDB adapter settles with conditions on DynamoDB Local.
import type { DateRange } from '../../../lib/maintenance/dates';
import type { PageWindow } from '../../../lib/maintenance/paging';
import type {
  AssetFilter,
  IdempotencyRecord,
  MaintenanceRepository,
  NewTaskWrite,
  Slice,
  TaskCreation,
} from '../../../lib/maintenance/ports';
import type {
  Asset,
  JobDone,
  JobPlanned,
  StockChange,
  StockLevel,
  Task,
  TaskStatus,
} from '../../../lib/maintenance/records';

export interface FakeMaintenanceRepository extends MaintenanceRepository {
  readonly tasks: ReadonlyMap<string, Task>;
  readonly stock: ReadonlyMap<string, StockLevel>;
  readonly history: readonly StockChange[];
  /** Runs at the start of the next createTask only (another request storing the same key first). */
  beforeCreateTask?: (write: NewTaskWrite) => Promise<void>;
  /** Runs at the start of every putStockLevel (another writer changing the level meanwhile). */
  beforePutStockLevel?: (level: StockLevel) => Promise<void>;
  /** Stores a level as another writer would (version and history included). */
  writeStockLevel(level: StockLevel): void;
}

const slice = <T>(all: readonly T[], window: PageWindow): Slice<T> => ({
  items: all.slice(window.offset, window.offset + window.limit),
  total: all.length,
});
const inRange = (date: string, range: DateRange): boolean => date >= range.start && date <= range.end;
const ordered = <T>(items: Iterable<T>, ...keys: Array<(t: T) => string>): T[] =>
  [...items].sort((a, b) => {
    for (const key of keys) {
      const order = key(a).localeCompare(key(b));
      if (order !== 0) return order;
    }
    return 0;
  });

function matches(asset: JobPlanned['asset'], filter: AssetFilter): boolean {
  return (Object.keys(filter) as Array<keyof AssetFilter>).every((field) => asset?.[field] === filter[field]);
}

export function fakeMaintenanceRepository(): FakeMaintenanceRepository {
  const jobsDone = new Map<string, JobDone>();
  const jobsPlanned = new Map<string, JobPlanned>();
  const assets = new Map<string, Asset>();
  const tasks = new Map<string, Task>();
  const idempotency = new Map<string, IdempotencyRecord>();
  const stock = new Map<string, StockLevel>();
  const history: StockChange[] = [];
  const key = (...parts: string[]) => parts.join('\u0000');
  const ofPlant = <T extends { plantId: string }>(map: Map<string, T>, plantId: string) =>
    [...map.values()].filter((r) => r.plantId === plantId);

  const repository: FakeMaintenanceRepository = {
    tasks,
    stock,
    history,
    writeStockLevel(level) {
      const before = stock.get(key(level.plantId, level.partId));
      stock.set(key(level.plantId, level.partId), level);
      history.push({
        plantId: level.plantId,
        partId: level.partId,
        version: level.version,
        at: level.updatedAt,
        by: level.updatedBy,
        oldQuantity: before?.quantity ?? null,
        newQuantity: level.quantity,
        oldUnit: before?.unit ?? null,
        newUnit: level.unit,
        remark: level.remark,
        isShort: level.isShort,
      });
    },

    listJobsDone: async (plantId, range, window) =>
      slice(
        ordered(
          ofPlant(jobsDone, plantId).filter((j) => inRange(j.doneDate, range)),
          (j) => j.doneDate,
          (j) => j.id,
        ),
        window,
      ),
    listJobsPlanned: async (plantId, range, filter, window) =>
      slice(
        ordered(
          ofPlant(jobsPlanned, plantId).filter((j) => inRange(j.dueDate, range) && matches(j.asset, filter)),
          (j) => j.dueDate,
          (j) => j.id,
        ),
        window,
      ),
    listAssets: async (plantId, window) =>
      slice(
        ordered(ofPlant(assets, plantId), (a) => a.tagNumber),
        window,
      ),
    listTasks: async (plantId, status: TaskStatus | undefined, window) =>
      slice(
        ordered(
          ofPlant(tasks, plantId).filter((t) => status === undefined || t.taskStatus === status),
          (t) => t.createdDate,
          (t) => t.id,
        ),
        window,
      ),
    getAsset: async (plantId, tagNumber) => assets.get(key(plantId, tagNumber)),

    async putJobsDone(plantId, jobs) {
      for (const job of jobs) jobsDone.set(key(plantId, job.id), job);
    },
    async putJobsPlanned(plantId, jobs) {
      for (const job of jobs) jobsPlanned.set(key(plantId, job.id), job);
    },
    async putAssets(plantId, list) {
      for (const asset of list) assets.set(key(plantId, asset.tagNumber), asset);
    },
    async putTasks(plantId, list) {
      for (const task of list) tasks.set(key(plantId, task.id), task);
    },

    getIdempotency: async (plantId, callerId, idempotencyKey) =>
      idempotency.get(key(plantId, callerId, idempotencyKey)),
    async createTask(write): Promise<TaskCreation> {
      const hook = repository.beforeCreateTask;
      repository.beforeCreateTask = undefined;
      await hook?.(write);
      const { task } = write;
      if (write.idempotency) {
        const id = key(task.plantId, write.idempotency.callerId, write.idempotency.key);
        const earlier = idempotency.get(id);
        if (earlier) return { outcome: 'replayed', record: earlier };
        idempotency.set(id, {
          requestHash: write.idempotency.requestHash,
          taskId: task.id,
          createdAt: new Date().toISOString(),
        });
      }
      tasks.set(key(task.plantId, task.id), task);
      return { outcome: 'created' };
    },

    getStockLevel: async (plantId, partId) => stock.get(key(plantId, partId)),
    async putStockLevel(level, change, expectedVersion) {
      await repository.beforePutStockLevel?.(level);
      const current = stock.get(key(level.plantId, level.partId));
      if ((current?.version ?? 0) !== expectedVersion) return false;
      stock.set(key(level.plantId, level.partId), level);
      history.push(change);
      return true;
    },
    listStockHistory: async (plantId, partId) =>
      history.filter((c) => c.plantId === plantId && c.partId === partId).sort((a, b) => a.version - b.version),
  };
  return repository;
}
