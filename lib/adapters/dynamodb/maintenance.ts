// The maintenance repository on the main DynamoDB table (design: docs/dynamodb.md, "Maintenance").
// Composed of the table's reads (table-reader.ts), the lists (maintenance-lists.ts) and the writes
// (maintenance-writes.ts); every request is built in maintenance-params.ts.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../../core/config';
import { OPEN_RANGE } from '../../maintenance/dates';
import type { AssetFilter, MaintenanceRepository } from '../../maintenance/ports';
import type { TaskStatus } from '../../maintenance/records';
import { createDynamoDbClients, documentClient, type DynamoDbTarget } from './client';
import { assetItem, stockChangeItem, stockLevelItem } from './item-schemas';
import { parseItem, parseOptionalItem } from './items';
import { maintenanceKeys as mk } from './keys';
import { maintenanceLists } from './maintenance-lists';
import * as params from './maintenance-params';
import { maintenanceWrites } from './maintenance-writes';
import { tableReader, type ReaderOptions } from './table-reader';

export type MaintenanceAdapterOptions = ReaderOptions;

export function dynamoDbMaintenance(
  client: DynamoDBDocumentClient,
  table: string,
  options: MaintenanceAdapterOptions = {},
): MaintenanceRepository {
  const reader = tableReader(client, table, options);
  const lists = maintenanceLists(reader);
  const writes = maintenanceWrites(client, table, reader);
  const byAsset = (filter: AssetFilter) =>
    filter.tagNumber !== undefined || filter.serialNumber !== undefined || filter.externalReference !== undefined;

  return {
    listJobsDone: (plantId, range, window) =>
      lists.listDated(params.jobDoneKind, plantId, 'JOBDONE', 'GSI1', range, window),
    // One asset's planned jobs are few: read them all, count and cut the page (maintenance-lists.ts).
    listJobsPlanned: (plantId, range, filter, window) =>
      byAsset(filter)
        ? lists.listPlannedOfAsset(plantId, range, filter, window)
        : lists.listDated(params.jobPlannedKind, plantId, 'JOBPLANNED', 'GSI1', range, window),
    listAssets: (plantId, window) => lists.listAssets(plantId, window),
    listTasks: (plantId, status: TaskStatus | undefined, window) =>
      status === undefined
        ? lists.listDated(params.taskKind, plantId, 'TASK', 'GSI1', OPEN_RANGE, window)
        : lists.listDated(params.taskKind, plantId, `TASK#${status}`, 'GSI2', OPEN_RANGE, window),
    getAsset: async (plantId, tagNumber) =>
      parseOptionalItem(assetItem, 'Asset', await reader.get(mk.asset(plantId, tagNumber))),

    putJobsDone: (plantId, jobs) => writes.putRecords(params.jobDoneKind, plantId, jobs),
    putJobsPlanned: (plantId, jobs) => writes.putRecords(params.jobPlannedKind, plantId, jobs),
    putAssets: (plantId, assets) => writes.putRecords(params.assetKind, plantId, assets),
    putTasks: (plantId, tasks) => writes.putRecords(params.taskKind, plantId, tasks),

    getIdempotency: (plantId, callerId, key) => writes.getIdempotency(plantId, callerId, key),
    createTask: (write) => writes.createTask(write),

    getStockLevel: async (plantId, partId) =>
      parseOptionalItem(stockLevelItem, 'StockLevel', await reader.get(mk.stockLevel(plantId, partId), true)),
    putStockLevel: (level, change, expectedVersion) => writes.putStockLevel(level, change, expectedVersion),
    listStockHistory: async (plantId, partId) =>
      (await reader.query(params.stockHistoryQuery(plantId, partId))).map((i) =>
        parseItem(stockChangeItem, 'StockChange', i),
      ),
  };
}

let fromConfig: MaintenanceRepository | undefined;

/** The repository of the running function (main table from configuration). */
export function maintenanceRepository(): MaintenanceRepository {
  fromConfig ??= dynamoDbMaintenance(documentClient(), config().MAIN_TABLE);
  return fromConfig;
}

/** For the admin CLI, tests and benchmarks: a repository on an explicit endpoint. */
export function openMaintenance(options: { tableName: string } & DynamoDbTarget & MaintenanceAdapterOptions): {
  repository: MaintenanceRepository;
  close(): void;
} {
  const clients = createDynamoDbClients(options);
  return { repository: dynamoDbMaintenance(clients.doc, options.tableName, options), close: clients.close };
}
