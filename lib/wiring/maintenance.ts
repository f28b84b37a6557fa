// The maintenance functions' dependencies from configuration: repository and registry on the
// main table, the system clock and random task ids.
import { randomUUID } from 'node:crypto';
import type { MaintenanceDeps } from '../maintenance/deps';
import { maintenanceRepository } from '../adapters/dynamodb/maintenance';
import { registry } from '../adapters/dynamodb/registry';
import { onceSync } from './once';

export const maintenanceDeps: () => MaintenanceDeps = onceSync(() => ({
  repository: maintenanceRepository(),
  registry: registry(),
  now: () => new Date(),
  newId: () => randomUUID(),
}));
