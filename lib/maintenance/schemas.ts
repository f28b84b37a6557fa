// Input schemas of the maintenance API: query parameters and bodies. The handlers parse with
// them and the OpenAPI document (openapi.ts) is generated from them, so the two cannot drift.
import { z } from 'zod';
import { INVENTORY_UNITS } from '../registry/units';
import { isoDate } from './dates';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from './paging';
import { recordId, TASK_STATUSES } from './records';

/** A whole number in a query string: digits only (no sign, exponent, blanks or hex). */
function wholeNumber(min: number, max: number, fallback: number, description: string) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^[0-9]{1,10}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message))
    .optional()
    .meta({
      type: 'integer',
      minimum: min,
      maximum: max,
      default: fallback,
      description: `${description} Default ${fallback}.`,
    });
}

const paging = {
  page: wholeNumber(
    1,
    MAX_PAGE,
    DEFAULT_PAGE,
    'One-based page number. A page past the end answers `data: []` with the true `totalPages`.',
  ),
  pageSize: wholeNumber(1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, 'Records per page.'),
};

const dates = {
  startDate: isoDate.optional().meta({
    description: 'First date of the range (inclusive), YYYY-MM-DD. Optional: without it the range has no lower end.',
  }),
  endDate: isoDate.optional().meta({
    description: 'Last date of the range (inclusive), YYYY-MM-DD. Optional: without it the range has no upper end.',
  }),
};

const filterText = z.string().trim().min(1).max(100);

// Query schemas are strict: a misspelt parameter (`pagesize`) is a 400, not silently ignored.
export const jobsDoneQuery = z.strictObject({ ...dates, ...paging });
export const jobsPlannedQuery = z.strictObject({
  ...dates,
  assetTagNumber: filterText.optional().meta({ description: 'Only jobs of the asset with this tag number (exact).' }),
  assetSerialNumber: filterText
    .optional()
    .meta({ description: 'Only jobs whose asset has this serial number (exact).' }),
  assetExternalReference: filterText
    .optional()
    .meta({ description: 'Only jobs whose asset has this external reference (exact).' }),
  ...paging,
});
export const assetsQuery = z.strictObject({ ...paging });
export const tasksQuery = z.strictObject({
  taskStatus: z.enum(TASK_STATUSES).optional().meta({ description: 'Only tasks in this status.' }),
  ...paging,
});

const lookupValue = (list: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .meta({ description: `Must equal exactly (case and blanks included) a value of the company's ${list} list.` });
const optionalDate = (description: string) => isoDate.nullish().meta({ description });

export const taskInput = z.strictObject({
  taskTitle: z.string().trim().min(1).max(200),
  taskDescription: z.string().max(4000).nullish(),
  activityKind: lookupValue('activityKind (task type)'),
  assignedToRole: lookupValue('assignedToRole (PMS Activity Job Role)'),
  priority: lookupValue('priority (Urgency)'),
  createdDate: optionalDate('Default: today (UTC).'),
  dueDate: optionalDate('Optional.'),
  incidentDate: optionalDate('Optional.'),
  asset: z.strictObject({ tagNumber: recordId.meta({ description: 'Must name an asset of the plant.' }) }).nullish(),
});
export type TaskInput = z.infer<typeof taskInput>;

/**
 * Bounds of a stock quantity: far beyond any plant's stock in any unit (10^12 grams is a million
 * tonnes), and inside what DynamoDB stores (it refuses numbers above 10^125 or below 10^-130).
 */
export const MAX_QUANTITY = 1_000_000_000_000;
export const MIN_POSITIVE_QUANTITY = 0.000001;

export const stockLevelInput = z.strictObject({
  id: z.string().min(1).max(100).meta({ description: 'The part number; must equal {partId} of the path.' }),
  quantity: z
    .number()
    .min(0, `must be from 0 to ${MAX_QUANTITY}`)
    .max(MAX_QUANTITY, `must be from 0 to ${MAX_QUANTITY}`)
    .refine((q) => q === 0 || q >= MIN_POSITIVE_QUANTITY, `must be 0 or at least ${MIN_POSITIVE_QUANTITY}`)
    .meta({
      description: `Quantity in stock: 0, or from ${MIN_POSITIVE_QUANTITY} to ${MAX_QUANTITY} (decimals allowed).`,
    }),
  unit: z
    .enum(INVENTORY_UNITS)
    .nullish()
    .meta({ description: "Default: the part's unit, else the unit of the current level." }),
  remark: z.string().max(1000).nullish(),
  isShort: z.boolean().nullish().meta({ description: 'Default: false.' }),
});
export type StockLevelInput = z.infer<typeof stockLevelInput>;

/** Idempotency-Key header of task creation: 1-200 visible ASCII characters. */
export const idempotencyKey = z.string().regex(/^[\x21-\x7e]{1,200}$/, 'must be 1-200 visible ASCII characters');
