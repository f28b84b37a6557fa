// The maintenance API's routes in one table: the OpenAPI document is generated from it and a
// test keeps it equal to the httpApi events of infra/functions/maintenance.yml.
import type { z } from 'zod';
import { assetRecord, jobDoneRecord, jobPlannedRecord, taskRecord } from './records';
import { assetsQuery, jobsDoneQuery, jobsPlannedQuery, stockLevelInput, taskInput, tasksQuery } from './schemas';

export interface MaintenanceRoute {
  readonly method: 'get' | 'post' | 'put';
  readonly path: string;
  /** The function of infra/functions/maintenance.yml serving the route. */
  readonly functionName: string;
  readonly operationId: string;
  readonly summary: string;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Paged list of these records, or the write envelope when absent. */
  readonly record?: z.ZodType;
  /** Statuses besides 200 and the always-possible 401/403/500. */
  readonly errors: readonly number[];
  readonly headers?: readonly { name: string; description: string }[];
  /** False for the document itself. */
  readonly authorized: boolean;
}

const PLANT = '/maintenance/v1/plants/{plantId}';

export const MAINTENANCE_ROUTES: readonly MaintenanceRoute[] = [
  {
    method: 'get',
    path: `${PLANT}/jobs-done`,
    functionName: 'maintenanceJobsDone',
    operationId: 'listJobsDone',
    summary: 'Jobs done whose doneDate lies in the range, oldest first',
    query: jobsDoneQuery,
    record: jobDoneRecord,
    errors: [400, 404],
    authorized: true,
  },
  {
    method: 'get',
    path: `${PLANT}/jobs-planned`,
    functionName: 'maintenanceJobsPlanned',
    operationId: 'listJobsPlanned',
    summary: 'Planned jobs whose dueDate lies in the range, optionally of one asset, earliest first',
    query: jobsPlannedQuery,
    record: jobPlannedRecord,
    errors: [400, 404],
    authorized: true,
  },
  {
    method: 'get',
    path: `${PLANT}/assets`,
    functionName: 'maintenanceAssets',
    operationId: 'listAssets',
    summary: 'Registered assets of the plant, by tag number',
    query: assetsQuery,
    record: assetRecord,
    errors: [400, 404],
    authorized: true,
  },
  {
    method: 'get',
    path: `${PLANT}/tasks`,
    functionName: 'maintenanceTasks',
    operationId: 'listTasks',
    summary: 'Tasks of the plant, optionally in one status, oldest createdDate first',
    query: tasksQuery,
    record: taskRecord,
    errors: [400, 404],
    authorized: true,
  },
  {
    method: 'post',
    path: `${PLANT}/tasks`,
    functionName: 'maintenanceCreateTask',
    operationId: 'createTask',
    summary: 'Create a task (status PENDING); data holds its id',
    body: taskInput,
    errors: [400, 404, 412, 413, 415],
    authorized: true,
    headers: [
      {
        name: 'Idempotency-Key',
        description:
          'Optional. A retry with the same key and body within 24 hours answers the first result (header Idempotent-Replayed: true); the same key with another body is 412.',
      },
    ],
  },
  {
    method: 'put',
    path: `${PLANT}/parts/{partId}/stock-level`,
    functionName: 'maintenanceStockLevel',
    operationId: 'setStockLevel',
    summary: 'Set the stock level of a part (history kept); data holds the new level, ETag its version',
    body: stockLevelInput,
    errors: [400, 404, 412, 413, 415],
    authorized: true,
    headers: [
      {
        name: 'If-Match',
        description:
          'Optional. The ETag of an earlier answer ("3"): the change applies only if the level is still at that version, else 412. `*`: only if a level exists.',
      },
    ],
  },
  {
    method: 'get',
    path: '/maintenance/v1/openapi.json',
    functionName: 'maintenanceOpenApi',
    operationId: 'getOpenApi',
    summary: 'This document',
    errors: [],
    authorized: false,
  },
];
