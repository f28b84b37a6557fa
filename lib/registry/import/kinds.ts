// The kinds of `insights-admin import`: each a row schema and a writer. The mechanics (reading,
// validation by line, all-or-nothing, progress, idempotence) are in run.ts and shared by all.
// Rows of jobs-done, jobs-planned, assets and tasks are defined in lib/maintenance/import-kinds.ts.
import { z } from 'zod';
import { assetsKind, jobsDoneKind, jobsPlannedKind, tasksKind } from '../../maintenance/import-kinds';
import type { MaintenanceRepository } from '../../maintenance/ports';
import type { Customer, Part, Plant } from '../model';
import { partNumberSchema } from '../model';
import type { Registry } from '../ports';
import { INVENTORY_UNITS } from '../units';

/** Where an import writes: one plant (and its customer), or company-wide for parts without --plant. */
export interface ImportTarget {
  readonly registry: Registry;
  readonly customer: Customer;
  readonly plant: Plant | null;
  /** The maintenance records' repository (assets, jobs, tasks kinds). */
  readonly maintenance?: MaintenanceRepository;
}

export interface ImportKind<Row> {
  readonly name: string;
  readonly summary: string;
  /** False for kinds that need a plant (everything but company-wide parts). */
  readonly companyWideAllowed: boolean;
  readonly row: z.ZodType<Row>;
  /**
   * Writes one batch; must be idempotent (the same row twice never makes two records), since an
   * interrupted import is simply run again.
   */
  write(target: ImportTarget, rows: readonly Row[]): Promise<void>;
  readonly batchSize: number;
}

/** Text cells (CSV) and JSON values alike: '' means absent, 'true'/'false' are booleans. */
const optionalText = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().max(500).optional());

const partRow = z.strictObject({
  partNumber: partNumberSchema,
  description: optionalText,
  unit: z.preprocess((v) => (v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toUpperCase() : v), z.enum(INVENTORY_UNITS).optional()),
});
export type PartRow = z.infer<typeof partRow>;

export const partsKind: ImportKind<PartRow> = {
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

export const IMPORT_KINDS: Readonly<Record<string, ImportKind<unknown> | undefined>> = {
  parts: partsKind as ImportKind<unknown>,
  assets: assetsKind as ImportKind<unknown>,
  'jobs-done': jobsDoneKind as ImportKind<unknown>,
  'jobs-planned': jobsPlannedKind as ImportKind<unknown>,
  tasks: tasksKind as ImportKind<unknown>,
};
