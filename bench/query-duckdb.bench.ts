// Issue 7: on DuckDB with 1 million and 10 million States rows (100k and 1M with --quick), a
// time-bucketed summarize and a filtered top, run (a) as hand-written SQL directly on DuckDB,
// (b) as the compiler's SQL directly, (c) through the query service in-process (request check,
// compile, run, row conversion: everything the endpoint does but HTTP and authorization), (d)
// through POST /insights/v1/telemetry/query/table on the offline stack. Same data file, same run.
// Goal: the endpoint within 1.1x of the hand-written SQL.
//
// The comparison is like for like: the endpoint's caller (the demo client) may read two plants,
// so the hand-written SQL restricts to those plants too, in the fastest form we know; (a) and (b)
// read rows with the engine's own reader. The fixed cost of a request (HTTP, the authorizer and
// the handler, measured with `print 1`) is reported beside the ratios.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { TELEMETRY_DDL } from '../lib/telemetry/duckdb-layout';
import { closeTelemetryDatabase } from '../lib/adapters/duckdb/database';
import { duckDbQueryEngine, readRowsJson } from '../lib/adapters/duckdb/query-engine';
import { compile } from '../lib/query';
import { runTableQuery } from '../lib/query-api/service';
import { startOfflineStack } from '../test/support/offline-stack';
import { demoAccess, query } from '../test/support/stack-client';
import { percentile, type Benchmark, type BenchRow } from './harness';

const WINDOW = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-08T00:00:00.000Z' };
/** The demo client's plants (lib/registry/seed.ts): the endpoint's caller sees only these. */
const PLANTS = ['demo-plant-1', 'demo-plant-2'];
const RANGE = `"Timestamp" >= TIMESTAMP '2026-01-01 00:00:00' AND "Timestamp" < TIMESTAMP '2026-01-08 00:00:00'`;
const SCOPE = `"CustomerId" = 'demo' AND list_contains([${PLANTS.map((p) => `'${p}'`).join(', ')}], "PlantId") AND ${RANGE}`;
const CASES = [
  {
    name: 'summarize avg by bin(1h)',
    kql: 'States | where Name == "temperature" | summarize avg(todouble(Value)) by bin(Timestamp, 1h)',
    sql: `SELECT time_bucket(INTERVAL 1 HOUR, "Timestamp") AS ts, avg(TRY_CAST(CAST("Value" AS VARCHAR) AS DOUBLE)) AS v FROM "States" WHERE ${SCOPE} AND "Name" = 'temperature' GROUP BY 1`,
  },
  {
    name: 'filtered top 10 by Timestamp',
    kql: 'States | where DeviceId == "device-007" and Name == "pressure" | top 10 by Timestamp desc',
    sql: `SELECT * EXCLUDE ("CustomerId") FROM "States" WHERE ${SCOPE} AND "DeviceId" = 'device-007' AND "Name" = 'pressure' ORDER BY "Timestamp" DESC LIMIT 10`,
  },
] as const;

/**
 * Issue 15: a join of the States rows with a 10,000-row datatable (50 of its devices exist), against
 * the same join written by hand. Its text and SQL pass the default limits (query length, terms, SQL
 * size), so this case is compiled with raised limits and timed as SQL only (no service, no endpoint).
 */
const JOIN_ROWS = 10_000;
const joinDevices = Array.from(
  { length: JOIN_ROWS },
  (_, i) => [`device-${String(i).padStart(3, '0')}`, i % 7] as const,
);
const JOIN_CASE = {
  name: `join with a ${JOIN_ROWS.toLocaleString('en-US')}-row datatable`,
  kql: `States | join kind=inner (datatable(DeviceId:string, Line:long)[${joinDevices.map(([d, l]) => `"${d}",${l}`).join(',')}]) on DeviceId | summarize count() by Line`,
  sql: `SELECT d.line, count(*) FROM "States" AS s JOIN (VALUES ${joinDevices.map(([d, l]) => `('${d}', ${l})`).join(', ')}) AS d(device, line) ON s."DeviceId" = d.device WHERE ${SCOPE.replace(/"(CustomerId|PlantId|Timestamp)"/g, 's."$1"')} GROUP BY d.line`,
  limits: { maxQueryLength: 1_000_000, maxQueryTerms: 1_000_000, maxSqlLength: 10_000_000, compileBudgetMs: 60_000 },
};

/** Rows spread over the 7-day window: 50 devices x 5 signals, numeric JSON values. */
async function load(file: string, rows: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const db = await DuckDBInstance.create(file);
  const c = await db.connect();
  for (const ddl of TELEMETRY_DDL) await c.run(ddl);
  const stepMicros = Math.floor((7 * 86_400 * 1e6) / rows);
  await c.run(`INSERT INTO "States" ("CustomerId", "Timestamp", "PlantId", "Uid", "DeviceId", "AgentId", "MessageId", "MessageType", "MessageVersion", "NameId", "Name", "Value", "Unit")
    SELECT 'demo', TIMESTAMP '2026-01-01 00:00:00' + to_microseconds(i * ${stepMicros}), 'demo-plant-1', 'agent_device-' || lpad(CAST(i % 50 AS VARCHAR), 3, '0'),
      'device-' || lpad(CAST(i % 50 AS VARCHAR), 3, '0'), 'agent', CAST(uuid() AS VARCHAR), 'state', '1.0', md5(CAST(i % 250 AS VARCHAR)),
      ['temperature', 'pressure', 'spindle-speed', 'motor-current', 'vibration'][(i // 50) % 5 + 1], CAST(round(random() * 100, 2) AS JSON), 'u'
    FROM range(${rows}) t(i)`);
  c.closeSync();
  db.closeSync();
}

async function timed(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return samples;
}

const bench: Benchmark = {
  name: 'query-duckdb',
  async run(ctx) {
    const sizes = ctx.quick ? [100_000, 1_000_000] : [1_000_000, 10_000_000];
    const runs = ctx.quick ? 5 : 15;
    const rows: BenchRow[] = [];
    for (const size of sizes) {
      const direct: Record<string, { hand: number; compiled: number; service: number; rows: number }> = {};
      ctx.progress(`${size.toLocaleString('en-US')} rows: loading and timing direct SQL`);
      const stack = await startOfflineStack({
        prepare: async (dataDir) => {
          const file = path.join(dataDir, 'telemetry.duckdb');
          await load(file, size);
          const db = await DuckDBInstance.create(file);
          const c = await db.connect();
          await c.run("SET TimeZone = 'UTC'");
          for (const q of CASES) {
            const compiled = compile(q.kql, {
              dialect: 'duckdb',
              scope: { customerId: 'demo', plantIds: PLANTS, ...WINDOW },
              now: new Date(),
              rowLimit: 10_000,
            });
            const hand = percentile(await timed(runs, () => readRowsJson(c, q.sql)), 50);
            const viaCompiler = percentile(await timed(runs, () => readRowsJson(c, compiled.sql)), 50);
            direct[q.name] = { hand, compiled: viaCompiler, service: 0, rows: (await readRowsJson(c, q.sql)).length };
          }
          {
            const compiled = compile(JOIN_CASE.kql, {
              dialect: 'duckdb',
              scope: { customerId: 'demo', plantIds: PLANTS, ...WINDOW },
              now: new Date(),
              rowLimit: 10_000,
              limits: JOIN_CASE.limits,
            });
            const expected = JSON.stringify((await readRowsJson(c, JOIN_CASE.sql)).map((r) => r.map(String)).sort());
            const actual = JSON.stringify((await readRowsJson(c, compiled.sql)).map((r) => r.map(String)).sort());
            if (actual !== expected)
              throw new Error(`${JOIN_CASE.name}: the compiled SQL gave other rows than the hand-written SQL`);
            const hand = percentile(await timed(runs, () => readRowsJson(c, JOIN_CASE.sql)), 50);
            const viaCompiler = percentile(await timed(runs, () => readRowsJson(c, compiled.sql)), 50);
            const label = `${JOIN_CASE.name}, ${size.toLocaleString('en-US')} rows`;
            rows.push(
              { case: label, metric: 'hand-written SQL p50 ms', value: hand },
              {
                case: label,
                metric: 'compiled SQL p50 ms',
                value: viaCompiler,
                note: `${(viaCompiler / hand).toFixed(2)}x hand-written (goal <= 1.2x)`,
              },
            );
          }
          c.closeSync();
          db.closeSync();
          // The service on the engine adapter the stack uses, as the demo client.
          const engine = duckDbQueryEngine(file);
          const caller = { kind: 'jwt', customerId: 'demo', plantIds: PLANTS, allPlants: false } as const;
          const settings = { rowLimit: 10_000, timeoutMs: 60_000, maxWindowDays: 31, now: () => new Date() };
          for (const q of CASES) {
            const entry = direct[q.name] as { service: number; rows: number };
            entry.service = percentile(
              await timed(runs, async () => {
                const answer = await runTableQuery({ query: q.kql, ...WINDOW }, caller, engine, settings);
                if (answer.data.rows.length !== entry.rows)
                  throw new Error(
                    `${q.name}: the service gave ${answer.data.rows.length} rows, hand-written SQL ${entry.rows}`,
                  );
              }),
              50,
            );
          }
          await closeTelemetryDatabase(file); // the stack opens the file next
        },
      });
      try {
        ctx.progress(`${size.toLocaleString('en-US')} rows: timing the endpoint`);
        const { accessToken } = await demoAccess(stack);
        const fixed = percentile(
          await timed(runs * 4, async () => {
            const answer = await query(stack, accessToken, 'print 1', WINDOW);
            if (answer.status !== 200)
              throw new Error(`endpoint answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          }),
          50,
        );
        rows.push({
          case: `print 1, ${size.toLocaleString('en-US')} rows`,
          metric: 'endpoint p50 ms',
          value: fixed,
          note: 'fixed cost of a request: HTTP, authorizer, handler',
        });
        for (const q of CASES) {
          const expected = direct[q.name] as { hand: number; compiled: number; service: number; rows: number };
          const endpoint = percentile(
            await timed(runs, async () => {
              const answer = await query(stack, accessToken, q.kql, WINDOW);
              if (answer.status !== 200)
                throw new Error(`endpoint answered ${answer.status}: ${JSON.stringify(answer.body)}`);
              // Like for like: the endpoint answers with as many rows as the hand-written SQL.
              if (answer.body.data?.rows.length !== expected.rows)
                throw new Error(
                  `${q.name}: endpoint gave ${answer.body.data?.rows.length} rows, hand-written SQL ${expected.rows}`,
                );
            }),
            50,
          );
          const { hand, compiled, service } = expected;
          const label = `${q.name}, ${size.toLocaleString('en-US')} rows`;
          rows.push(
            { case: label, metric: 'hand-written SQL p50 ms', value: hand },
            {
              case: label,
              metric: 'compiled SQL p50 ms',
              value: compiled,
              note: `${(compiled / hand).toFixed(2)}x hand-written`,
            },
            {
              case: label,
              metric: 'query service p50 ms',
              value: service,
              note: `${(service / hand).toFixed(2)}x hand-written (in-process, no HTTP)`,
            },
            {
              case: label,
              metric: 'endpoint p50 ms',
              value: endpoint,
              note: `${(endpoint / hand).toFixed(2)}x hand-written (goal <= 1.1x); less the fixed cost ${((endpoint - fixed) / hand).toFixed(2)}x`,
            },
          );
        }
      } finally {
        await stack.stop();
      }
    }
    return rows;
  },
};

export default bench;
