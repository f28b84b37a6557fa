// Maintenance API (issue 6): 10,000 jobs done in one plant on the offline stack (DynamoDB Local,
// the maintenance authorizer, serverless-offline over HTTP). p50/p99 of jobs-done page 1 and
// page 50 at concurrency 10, and the read capacity of the same page reads (ReturnConsumedCapacity,
// in-process through the same repository), beside a naive "read up to the page" Query.
import { QueryCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { performance } from 'node:perf_hooks';
import { openMaintenance } from '../lib/adapters/dynamodb/maintenance';
import { maintenanceKeys } from '../lib/adapters/dynamodb/keys';
import { openRegistry } from '../lib/adapters/dynamodb/registry';
import { OPEN_RANGE } from '../lib/maintenance/dates';
import type { JobDone } from '../lib/maintenance/records';
import { seedDemo } from '../lib/registry/seed';
import { issueMaintenanceToken, redeemTokenLink } from '../lib/registry/tokens';
import { startOfflineStack } from '../test/support/offline-stack';
import { percentile, type Benchmark, type BenchRow } from './harness';

const TABLE = 'industrial-insights-local-main';
const PLANT = 'demo-plant-1';

/** `count` jobs, 10 a day from 2023-01-01. */
function jobs(count: number): JobDone[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `BJ${String(i).padStart(6, '0')}`,
    plantId: PLANT,
    jobTitle: `Bench job ${i}`,
    doneDate: new Date(Date.UTC(2023, 0, 1) + Math.floor(i / 10) * 86_400_000).toISOString().slice(0, 10),
    dueDate: null,
    activityKind: 'Inspection',
    department: 'Maintenance',
    totalTimeUsedInHours: '1.25',
    requiredPersonCount: 2,
    isFinal: true,
    asset: { tagNumber: 'P-101', serialNumber: 'SN-44871', externalReference: 'ERP-10001' },
    workOrder: { id: `WO-${i}`, remark: 'routine' },
    carriedOutByUser: { firstname: 'Anna', lastname: 'Jansen', username: 'ajansen' },
    partsUsed: [{ partNumber: 'BRG-6204-2RS', description: 'Bearing', quantity: 1, unit: 'PIECE' }],
  }));
}

/** `total` GETs, `concurrency` at a time; latency of each in ms. @throws when one is not 200. */
async function load(url: string, token: string, total: number, concurrency: number): Promise<number[]> {
  const samples: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next++;
      const started = performance.now();
      const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      samples.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return samples;
}

const bench: Benchmark = {
  name: 'maintenance',
  async run(ctx) {
    const count = ctx.quick ? 1000 : 10_000;
    const pageSize = ctx.quick ? 10 : 100;
    const requests = ctx.quick ? 100 : 1000;
    const rows: BenchRow[] = [];
    ctx.progress('starting the offline stack');
    const stack = await startOfflineStack();
    const endpoint = `http://127.0.0.1:${stack.ports.dynamodb}`;
    const reg = openRegistry({ tableName: TABLE, endpoint, region: 'eu-west-1' });
    let units = 0;
    const maint = openMaintenance({
      tableName: TABLE,
      endpoint,
      region: 'eu-west-1',
      onReadCapacity: (u) => (units += u),
    });
    const raw = new DynamoDBClient({
      endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    try {
      await seedDemo(reg.registry, { now: new Date() });
      const issued = await issueMaintenanceToken(reg.registry, { plantId: PLANT, now: new Date() });
      const token = (await redeemTokenLink(reg.registry, issued.linkId, new Date())).accessToken;

      ctx.progress(`writing ${count} jobs (transactions with their counters)`);
      const started = performance.now();
      await maint.repository.putJobsDone(PLANT, jobs(count));
      const seconds = (performance.now() - started) / 1000;
      rows.push({
        case: `import ${count} jobs done (DynamoDB Local)`,
        metric: 'jobs/s',
        value: count / seconds,
        note: `${seconds.toFixed(1)} s, 40 jobs + counters a transaction`,
      });

      for (const page of [1, 50]) {
        const url = `${stack.httpUrl}/maintenance/v1/plants/${PLANT}/jobs-done?page=${page}&pageSize=${pageSize}`;
        const check = (await (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
          data: Array<{ id: string }>;
          totalPages: number;
        };
        if (
          check.data.length !== pageSize ||
          check.data[0]?.id !== `BJ${String((page - 1) * pageSize).padStart(6, '0')}`
        )
          throw new Error(`page ${page} is wrong: ${JSON.stringify(check).slice(0, 200)}`);
        ctx.progress(`jobs-done page ${page}: ${requests} requests at concurrency 10`);
        await load(url, token, 20, 10);
        const samples = await load(url, token, requests, 10);
        const label = `jobs-done page ${page} of ${check.totalPages} (pageSize ${pageSize}), HTTP, concurrency 10`;
        rows.push(
          { case: label, metric: 'p50 ms', value: percentile(samples, 50) },
          { case: label, metric: 'p99 ms', value: percentile(samples, 99) },
        );
        const single = await load(url, token, Math.min(100, requests), 1);
        rows.push({
          case: `jobs-done page ${page}, HTTP, one at a time`,
          metric: 'p50 ms',
          value: percentile(single, 50),
          note: 'authorizer + handler, same process',
        });

        units = 0;
        const slice = await maint.repository.listJobsDone(PLANT, OPEN_RANGE, {
          offset: (page - 1) * pageSize,
          limit: pageSize,
        });
        if (slice.items.length !== pageSize) throw new Error('in-process page is short');
        rows.push({
          case: `jobs-done page ${page}, counters + one index range`,
          metric: 'RCU/request',
          value: units,
          note: 'ReturnConsumedCapacity TOTAL, eventually consistent',
        });

        // Reference: reading the index from the start up to the page (what offset paging costs without counters).
        let naive = 0;
        let start: Record<string, unknown> | undefined;
        let read = 0;
        const doc = DynamoDBDocumentClient.from(raw);
        do {
          const out = await doc.send(
            new QueryCommand({
              TableName: TABLE,
              IndexName: 'GSI1',
              KeyConditionExpression: 'GSI1PK = :pk',
              ExpressionAttributeValues: { ':pk': maintenanceKeys.collection(PLANT, 'JOBDONE') },
              Limit: page * pageSize - read,
              ExclusiveStartKey: start,
              ReturnConsumedCapacity: 'TOTAL',
            }),
          );
          naive += out.ConsumedCapacity?.CapacityUnits ?? 0;
          read += out.Count ?? 0;
          start = out.LastEvaluatedKey;
        } while (start && read < page * pageSize);
        rows.push({
          case: `jobs-done page ${page}, naive Query up to the page`,
          metric: 'RCU/request',
          value: naive,
          note: 'reference only; plus a full read for totalPages',
        });
      }
    } finally {
      raw.destroy();
      maint.close();
      reg.close();
      await stack.stop();
    }
    return rows;
  },
};

export default bench;
