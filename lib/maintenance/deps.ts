// What the maintenance services need: the repository, the registry's plants, lookups and parts,
// a clock and an id source (fixed in tests). Built from configuration in lib/adapters/maintenance-wiring.ts.
import type { Caller } from '../auth/caller';
import { AppError } from '../core/errors';
import type { Plant } from '../registry/model';
import type { Registry } from '../registry/ports';
import type { MaintenanceRepository } from './ports';

export interface MaintenanceDeps {
  readonly repository: MaintenanceRepository;
  readonly registry: Pick<Registry, 'getPlant' | 'getLookupList' | 'findPart'>;
  now(): Date;
  newId(): string;
}

/**
 * The plant of the path, after the authorizer let the caller in for it.
 * @throws AppError NOT_FOUND for an unknown plant, FORBIDDEN for a plant of another customer.
 */
export async function requirePlant(deps: MaintenanceDeps, caller: Caller, plantId: string): Promise<Plant> {
  const plant = await deps.registry.getPlant(plantId);
  if (!plant)
    throw new AppError('NOT_FOUND', `plant "${plantId}" does not exist`, { field: 'plantId', value: plantId });
  if (plant.customerId !== caller.customerId)
    throw new AppError('FORBIDDEN', `this access token does not give access to plant "${plantId}"`, {
      field: 'plantId',
      value: plantId,
    });
  return plant;
}

/** Who made a change, as kept in the stock-level history. */
export function actorOf(caller: Caller): string {
  if (caller.tokenId !== undefined) return `plant-token:${caller.tokenId}`;
  if (caller.clientId !== undefined) return `client:${caller.clientId}`;
  return `${caller.kind}:unknown`;
}
