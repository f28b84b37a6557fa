// What one kind of `insights-admin import` is: a row schema and a writer. The mechanics (reading,
// validation by line, all-or-nothing, batches, progress) are in run.ts and shared by every kind.
// A kind names only what it writes to (its Target); the admin CLI, where the kinds are listed,
// gives each its target, so the areas that own kinds (registry, maintenance) never meet here.
import type { z } from 'zod';

export interface ImportKind<Row, Target> {
  readonly name: string;
  readonly summary: string;
  /** False for kinds that need a plant (everything but company-wide parts). */
  readonly companyWideAllowed: boolean;
  readonly row: z.ZodType<Row>;
  /**
   * Writes one batch; must be idempotent (the same row twice never makes two records), since an
   * interrupted import is simply run again.
   */
  write(target: Target, rows: readonly Row[]): Promise<void>;
  readonly batchSize: number;
}
