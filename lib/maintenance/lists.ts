// The four paged lists of the maintenance API: parse the query, check the plant, read one page.
import type { Caller } from '../auth/caller';
import { requirePlant, type MaintenanceDeps } from './deps';
import { parseInput } from '../core/input';
import { dateRange, pageRequest } from './input';
import { pagedList, pageWindow, type Paged } from './paging';
import type { Asset, JobDone, JobPlanned, Task } from './records';
import { assetsQuery, jobsDoneQuery, jobsPlannedQuery, tasksQuery } from './schemas';

/** Raw query string parameters as API Gateway hands them over. */
export type RawQuery = Readonly<Record<string, string | undefined>> | undefined | null;

export async function listJobsDone(
  deps: MaintenanceDeps,
  caller: Caller,
  plantId: string,
  raw: RawQuery,
): Promise<Paged<JobDone>> {
  const query = parseInput(jobsDoneQuery, raw ?? {}, 'query');
  const range = dateRange(query);
  const page = pageRequest(query);
  await requirePlant(deps, caller, plantId);
  const slice = await deps.repository.listJobsDone(plantId, range, pageWindow(page));
  return pagedList(page, slice.total, slice.items);
}

export async function listJobsPlanned(
  deps: MaintenanceDeps,
  caller: Caller,
  plantId: string,
  raw: RawQuery,
): Promise<Paged<JobPlanned>> {
  const query = parseInput(jobsPlannedQuery, raw ?? {}, 'query');
  const range = dateRange(query);
  const page = pageRequest(query);
  await requirePlant(deps, caller, plantId);
  const filter = {
    ...(query.assetTagNumber !== undefined ? { tagNumber: query.assetTagNumber } : {}),
    ...(query.assetSerialNumber !== undefined ? { serialNumber: query.assetSerialNumber } : {}),
    ...(query.assetExternalReference !== undefined ? { externalReference: query.assetExternalReference } : {}),
  };
  const slice = await deps.repository.listJobsPlanned(plantId, range, filter, pageWindow(page));
  return pagedList(page, slice.total, slice.items);
}

export async function listAssets(
  deps: MaintenanceDeps,
  caller: Caller,
  plantId: string,
  raw: RawQuery,
): Promise<Paged<Asset>> {
  const page = pageRequest(parseInput(assetsQuery, raw ?? {}, 'query'));
  await requirePlant(deps, caller, plantId);
  const slice = await deps.repository.listAssets(plantId, pageWindow(page));
  return pagedList(page, slice.total, slice.items);
}

export async function listTasks(
  deps: MaintenanceDeps,
  caller: Caller,
  plantId: string,
  raw: RawQuery,
): Promise<Paged<Task>> {
  const query = parseInput(tasksQuery, raw ?? {}, 'query');
  const page = pageRequest(query);
  await requirePlant(deps, caller, plantId);
  const slice = await deps.repository.listTasks(plantId, query.taskStatus, pageWindow(page));
  return pagedList(page, slice.total, slice.items);
}
