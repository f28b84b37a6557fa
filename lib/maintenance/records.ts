// The records the maintenance API returns. Job records carry exactly the spec's job fields; the
// planned-job, asset and task fields are this service's decision (docs/maintenance-api.md).
// Every field is always present; a value the plant never recorded is null.
import { z } from 'zod';
import { isoDate } from './dates';

export const TASK_STATUSES = [
  'PENDING',
  'POSTPONED',
  'NEED_CONFIRMATION',
  'POSTPONEMENT_NEED_APPROVAL',
  'NEED_APPROVAL',
  'CLOSED',
  'NOT_CLOSED',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Identifiers used in keys: no '#' (key separator), no surrounding blanks, at most 100 characters. */
export const recordId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^#]+$/, "must not contain '#'");

const text = z.string().nullable();
/** Decimal number as text (spec: `totalTimeUsedInHours` is numeric text), e.g. "2.5". */
export const numericText = z
  .string()
  .regex(/^(?:0|[1-9][0-9]{0,8})(?:\.[0-9]{1,4})?$/, 'must be a non-negative decimal number as text, e.g. "2.5"');

export const assetRef = z
  .object({ tagNumber: text, serialNumber: text, externalReference: text })
  .meta({ description: 'The asset the record concerns.' });
export const workOrder = z.object({ id: text, remark: text });
export const userRef = z.object({ firstname: text, lastname: text, username: text });
/** The spec leaves the item shape open; this service uses part number, description, quantity, unit. */
export const partUsed = z.object({ partNumber: z.string(), description: text, quantity: z.number(), unit: text });

export const jobDoneRecord = z.object({
  id: z.string(),
  plantId: z.string(),
  jobTitle: z.string(),
  doneDate: isoDate,
  dueDate: isoDate.nullable(),
  activityKind: text,
  department: text,
  totalTimeUsedInHours: numericText.nullable(),
  requiredPersonCount: z.number().int().nullable(),
  isFinal: z.boolean(),
  asset: assetRef.nullable(),
  workOrder: workOrder.nullable(),
  carriedOutByUser: userRef.nullable(),
  partsUsed: z.array(partUsed),
});
export type JobDone = z.infer<typeof jobDoneRecord>;

export const jobPlannedRecord = z.object({
  id: z.string(),
  plantId: z.string(),
  jobTitle: z.string(),
  dueDate: isoDate,
  activityKind: text,
  department: text,
  estimatedTimeInHours: numericText.nullable(),
  requiredPersonCount: z.number().int().nullable(),
  asset: assetRef.nullable(),
  workOrder: workOrder.nullable(),
});
export type JobPlanned = z.infer<typeof jobPlannedRecord>;

export const assetRecord = z.object({
  tagNumber: z.string(),
  plantId: z.string(),
  serialNumber: text,
  externalReference: text,
  description: text,
  manufacturer: text,
  model: text,
  location: text,
});
export type Asset = z.infer<typeof assetRecord>;

export const taskRecord = z.object({
  id: z.string(),
  plantId: z.string(),
  taskTitle: z.string(),
  taskDescription: text,
  activityKind: z.string(),
  assignedToRole: z.string(),
  priority: z.string(),
  taskStatus: z.enum(TASK_STATUSES),
  createdDate: isoDate,
  dueDate: isoDate.nullable(),
  incidentDate: isoDate.nullable(),
  asset: assetRef.nullable(),
});
export type Task = z.infer<typeof taskRecord>;

/** The current stock level of a part in a plant (not listed by the API; kept with its history). */
export interface StockLevel {
  readonly plantId: string;
  readonly partId: string;
  readonly quantity: number;
  readonly unit: string | null;
  readonly remark: string | null;
  readonly isShort: boolean;
  /** 1 for the first level set, +1 on every change (the ETag of the PUT answer). */
  readonly version: number;
  readonly updatedAt: string;
  readonly updatedBy: string;
}

/** One change of a stock level: who, when, old and new quantity (old null for the first). */
export interface StockChange {
  readonly plantId: string;
  readonly partId: string;
  readonly version: number;
  readonly at: string;
  readonly by: string;
  readonly oldQuantity: number | null;
  readonly newQuantity: number;
  readonly oldUnit: string | null;
  readonly newUnit: string | null;
  readonly remark: string | null;
  readonly isShort: boolean;
}
