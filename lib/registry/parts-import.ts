// `insights-admin import parts`: spare parts of a plant, or company-wide. The mechanics (reading,
// validation by line, all-or-nothing, progress) are in lib/import and shared by every kind.
import { z } from 'zod';
import type { ImportKind } from '../import/kind';
import type { Customer, Part, Plant } from './model';
import { partNumberSchema } from './model';
import type { Registry } from './ports';
import { INVENTORY_UNITS } from './units';

/** Where parts are written: one plant of a customer, or company-wide (plant null) without --plant. */
export interface PartsTarget {
  readonly registry: Registry;
  readonly customer: Customer;
  readonly plant: Plant | null;
}

/** Text cells (CSV) and JSON values alike: '' means absent, 'true'/'false' are booleans. */
const optionalText = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.string().trim().max(500).optional(),
);

const partRow = z.strictObject({
  partNumber: partNumberSchema,
  description: optionalText,
  unit: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.enum(INVENTORY_UNITS).optional(),
  ),
});
export type PartRow = z.infer<typeof partRow>;

export const partsKind: ImportKind<PartRow, PartsTarget> = {
  name: 'parts',
  summary: 'spare parts (part number, description, unit) of a plant, or company-wide with --customer',
  companyWideAllowed: true,
  row: partRow,
  batchSize: 100,
  async write(target, rows) {
    const parts: Part[] = rows.map((r) => ({
      customerId: target.customer.customerId,
      plantId: target.plant?.plantId ?? null,
      partNumber: r.partNumber,
      description: r.description ?? '',
      ...(r.unit !== undefined ? { unit: r.unit } : {}),
    }));
    await target.registry.putParts(parts);
  },
};
