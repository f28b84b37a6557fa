// The kinds `insights-admin import` offers, composed here from the areas that own them (parts from
// the registry, maintenance records from maintenance), each given what it writes to from the
// command's scope. Listing them here, and not in either area, keeps the two areas apart.
import type { ImportKind } from '../../import/kind';
import {
  assetsKind,
  jobsDoneKind,
  jobsPlannedKind,
  tasksKind,
  type PlantRecordsTarget,
} from '../../maintenance/import-kinds';
import type { MaintenanceRepository } from '../../maintenance/ports';
import type { Customer, Plant } from '../../registry/model';
import { partsKind } from '../../registry/parts-import';
import type { Registry } from '../../registry/ports';

/** What one run of the import command works on: both repositories, the customer, the plant or none. */
export interface ImportScope {
  readonly registry: Registry;
  readonly maintenance: MaintenanceRepository;
  readonly customer: Customer;
  readonly plant: Plant | null;
}

/** A kind whose rows are checked by the shared mechanics and whose target comes from the scope. */
export type ScopedImportKind = ImportKind<unknown, ImportScope>;

function scoped<Row, Target>(
  kind: ImportKind<Row, Target>,
  targetOf: (scope: ImportScope) => Target,
): ScopedImportKind {
  const write = (scope: ImportScope, rows: readonly Row[]): Promise<void> => kind.write(targetOf(scope), rows);
  // Rows reach write only after kind.row parsed them, so they are Rows; the cast only forgets the type.
  return { ...kind, write } as unknown as ScopedImportKind;
}

/** Maintenance records belong to one plant; the command refuses these kinds without --plant. */
function plantRecords(scope: ImportScope): PlantRecordsTarget {
  if (scope.plant === null) throw new Error('maintenance records are imported into one plant (--plant)');
  return { repository: scope.maintenance, plantId: scope.plant.plantId };
}

export const IMPORT_KINDS: Readonly<Record<string, ScopedImportKind>> = {
  parts: scoped(partsKind, (scope) => scope),
  assets: scoped(assetsKind, plantRecords),
  'jobs-done': scoped(jobsDoneKind, plantRecords),
  'jobs-planned': scoped(jobsPlannedKind, plantRecords),
  tasks: scoped(tasksKind, plantRecords),
};
