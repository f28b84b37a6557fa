// Import kinds of the maintenance records for `insights-admin import assets|jobs-done|jobs-planned|tasks
// --plant P FILE` (mechanics in lib/import). CSV files name nested fields with dots
// (`asset.tagNumber`, `workOrder.id`) and give partsUsed as a JSON array text.
import { z } from 'zod';
import type { ImportKind } from '../import/kind';
import type { MaintenanceRepository } from './ports';
import { isoDate } from './dates';
import { numericText, recordId, TASK_STATUSES, type Asset, type JobDone, type JobPlanned, type Task } from './records';

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);
const text = z.preprocess(blank, z.string().trim().max(500).optional());
const date = z.preprocess(blank, isoDate.optional());
const int = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : blank(v)),
  z.number().int().min(0).max(1000).optional(),
);
const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : blank(v)), z.boolean().optional());
const hours = z.preprocess((v) => (typeof v === 'number' ? String(v) : blank(v)), numericText.optional());

/** `{"asset.tagNumber": "P-1"}` (CSV) to `{asset: {tagNumber: "P-1"}}`; blank cells dropped. */
export function unflatten(row: unknown): unknown {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return row;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const [head, ...rest] = key.split('.');
    if (rest.length === 0 || head === undefined) out[key] = value;
    else if (value !== '') out[head] = { ...((out[head] as object | undefined) ?? {}), [rest.join('.')]: value };
  }
  return out;
}

const assetRef = z.preprocess(
  blank,
  z.strictObject({ tagNumber: text, serialNumber: text, externalReference: text }).optional(),
);
const partsUsed = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? [] : JSON.parse(v)) : blank(v)),
  z
    .array(
      z.strictObject({
        partNumber: z.string().trim().min(1).max(100),
        description: text,
        quantity: z.number().min(0),
        unit: text,
      }),
    )
    .optional(),
);

const row = <S extends z.ZodRawShape>(shape: S) => z.preprocess(unflatten, z.strictObject(shape));

const refOf = (
  a:
    | { tagNumber?: string | undefined; serialNumber?: string | undefined; externalReference?: string | undefined }
    | undefined,
) =>
  a === undefined
    ? null
    : {
        tagNumber: a.tagNumber ?? null,
        serialNumber: a.serialNumber ?? null,
        externalReference: a.externalReference ?? null,
      };

const jobDoneRow = row({
  id: recordId,
  jobTitle: z.string().trim().min(1).max(500),
  doneDate: isoDate,
  dueDate: date,
  activityKind: text,
  department: text,
  totalTimeUsedInHours: hours,
  requiredPersonCount: int,
  isFinal: bool,
  asset: assetRef,
  workOrder: z.preprocess(blank, z.strictObject({ id: text, remark: text }).optional()),
  carriedOutByUser: z.preprocess(blank, z.strictObject({ firstname: text, lastname: text, username: text }).optional()),
  partsUsed,
});
const jobPlannedRow = row({
  id: recordId,
  jobTitle: z.string().trim().min(1).max(500),
  dueDate: isoDate,
  activityKind: text,
  department: text,
  estimatedTimeInHours: hours,
  requiredPersonCount: int,
  asset: assetRef,
  workOrder: z.preprocess(blank, z.strictObject({ id: text, remark: text }).optional()),
});
const assetRow = row({
  tagNumber: recordId,
  serialNumber: text,
  externalReference: text,
  description: text,
  manufacturer: text,
  model: text,
  location: text,
});
const taskRow = row({
  id: recordId,
  taskTitle: z.string().trim().min(1).max(200),
  taskDescription: text,
  activityKind: z.string().min(1).max(200),
  assignedToRole: z.string().min(1).max(200),
  priority: z.string().min(1).max(200),
  taskStatus: z.preprocess(blank, z.enum(TASK_STATUSES).optional()),
  createdDate: isoDate,
  dueDate: date,
  incidentDate: date,
  asset: assetRef,
});

/** Where maintenance records are written: the repository, for one plant. */
export interface PlantRecordsTarget {
  readonly repository: MaintenanceRepository;
  readonly plantId: string;
}

type Row<S extends z.ZodType> = z.output<S>;

export const jobsDoneKind: ImportKind<Row<typeof jobDoneRow>, PlantRecordsTarget> = {
  name: 'jobs-done',
  summary: 'jobs done of a plant (id, jobTitle, doneDate, ...)',
  companyWideAllowed: false,
  row: jobDoneRow,
  batchSize: 200,
  async write({ repository, plantId }, rows) {
    const jobs: JobDone[] = rows.map((r) => ({
      id: r.id,
      plantId,
      jobTitle: r.jobTitle,
      doneDate: r.doneDate,
      dueDate: r.dueDate ?? null,
      activityKind: r.activityKind ?? null,
      department: r.department ?? null,
      totalTimeUsedInHours: r.totalTimeUsedInHours ?? null,
      requiredPersonCount: r.requiredPersonCount ?? null,
      isFinal: r.isFinal ?? false,
      asset: refOf(r.asset),
      workOrder: r.workOrder ? { id: r.workOrder.id ?? null, remark: r.workOrder.remark ?? null } : null,
      carriedOutByUser: r.carriedOutByUser
        ? {
            firstname: r.carriedOutByUser.firstname ?? null,
            lastname: r.carriedOutByUser.lastname ?? null,
            username: r.carriedOutByUser.username ?? null,
          }
        : null,
      partsUsed: (r.partsUsed ?? []).map((p) => ({
        partNumber: p.partNumber,
        description: p.description ?? null,
        quantity: p.quantity,
        unit: p.unit ?? null,
      })),
    }));
    await repository.putJobsDone(plantId, jobs);
  },
};

export const jobsPlannedKind: ImportKind<Row<typeof jobPlannedRow>, PlantRecordsTarget> = {
  name: 'jobs-planned',
  summary: 'planned jobs of a plant (id, jobTitle, dueDate, ...)',
  companyWideAllowed: false,
  row: jobPlannedRow,
  batchSize: 200,
  async write({ repository, plantId }, rows) {
    const jobs: JobPlanned[] = rows.map((r) => ({
      id: r.id,
      plantId,
      jobTitle: r.jobTitle,
      dueDate: r.dueDate,
      activityKind: r.activityKind ?? null,
      department: r.department ?? null,
      estimatedTimeInHours: r.estimatedTimeInHours ?? null,
      requiredPersonCount: r.requiredPersonCount ?? null,
      asset: refOf(r.asset),
      workOrder: r.workOrder ? { id: r.workOrder.id ?? null, remark: r.workOrder.remark ?? null } : null,
    }));
    await repository.putJobsPlanned(plantId, jobs);
  },
};

export const assetsKind: ImportKind<Row<typeof assetRow>, PlantRecordsTarget> = {
  name: 'assets',
  summary: 'registered assets of a plant (tagNumber, serialNumber, externalReference, ...)',
  companyWideAllowed: false,
  row: assetRow,
  batchSize: 200,
  async write({ repository, plantId }, rows) {
    const assets: Asset[] = rows.map((r) => ({
      tagNumber: r.tagNumber,
      plantId,
      serialNumber: r.serialNumber ?? null,
      externalReference: r.externalReference ?? null,
      description: r.description ?? null,
      manufacturer: r.manufacturer ?? null,
      model: r.model ?? null,
      location: r.location ?? null,
    }));
    await repository.putAssets(plantId, assets);
  },
};

export const tasksKind: ImportKind<Row<typeof taskRow>, PlantRecordsTarget> = {
  name: 'tasks',
  summary: 'tasks of a plant in any status (id, taskTitle, activityKind, assignedToRole, priority, createdDate, ...)',
  companyWideAllowed: false,
  row: taskRow,
  batchSize: 200,
  async write({ repository, plantId }, rows) {
    const tasks: Task[] = rows.map((r) => ({
      id: r.id,
      plantId,
      taskTitle: r.taskTitle,
      taskDescription: r.taskDescription ?? null,
      activityKind: r.activityKind,
      assignedToRole: r.assignedToRole,
      priority: r.priority,
      taskStatus: r.taskStatus ?? 'PENDING',
      createdDate: r.createdDate,
      dueDate: r.dueDate ?? null,
      incidentDate: r.incidentDate ?? null,
      asset: refOf(r.asset),
    }));
    await repository.putTasks(plantId, tasks);
  },
};
