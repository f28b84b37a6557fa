// The maintenance functions' dependencies from configuration: repository and registry on the
// main table, the system clock and random task ids.
import { randomUUID } from 'node:crypto';
import type { MaintenanceDeps } from '../maintenance/deps';
import { maintenanceRepository } from './dynamodb/maintenance';
import { registry } from './dynamodb/registry';

let deps: MaintenanceDeps | undefined;

export function maintenanceDeps(): MaintenanceDeps {
  deps ??= { repository: maintenanceRepository(), registry: registry(), now: () => new Date(), newId: () => randomUUID() };
  return deps;
}
