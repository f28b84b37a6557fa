// Ingest, in process (issues 5 and 13): the core per message (validate, enrich, map to rows, the
// deployed store's rules) beside JSON.parse + JSON.stringify of the same 10x10 message; the
// Timestream writer filling WriteRecords across the messages of a batch (mocked client); the
// local path of a batch (ingestBatch on DuckDB: ledger, rows, lake) per batch size; DuckDB writes
// of varying batches with DuckDB's checkpoint defaults and with the store's; and the ledger on
// DynamoDB Local against the ledger in DuckDB. End to end: bench/ingest-e2e.bench.ts.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TimestreamWriteClient, WriteRecordsCommand } from '@aws-sdk/client-timestream-write';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DuckDBInstance } from '@duckdb/node-api';
import { mockClient } from 'aws-sdk-client-mock';
import { closeTelemetryDatabase, instanceOptions } from '../lib/adapters/duckdb/database';
import { duckDbIngestLedger } from '../lib/adapters/duckdb/ingest-ledger';
import { TELEMETRY_DDL } from '../lib/telemetry/duckdb-layout';
import { duckDbTelemetryStore, writeTelemetry } from '../lib/adapters/duckdb/telemetry-store';
import { dynamoDbIngestLedger } from '../lib/adapters/dynamodb/ingest-ledger';
import { fileDataLake } from '../lib/adapters/files/data-lake';
import { fileDeadLetter } from '../lib/adapters/files/dead-letter';
import { timestreamTelemetryStore } from '../lib/adapters/timestream/telemetry-store';
import { toCloud, toEdge, validateMessage, type EdgeMessage } from '../lib/gdm';
import { createMessageGenerator } from '../lib/gdm/simulator';
import { ingestBatch, type IngestDeps } from '../lib/ingest/ingest';
import type { IngestLedger, MessageKey } from '../lib/ingest/ports';
import { rowsOf } from '../lib/ingest/rows';
import { storeRuleViolations, storeRulesOf } from '../lib/telemetry/store-rules';
import { startDynamoDbLocal } from '../test/support/dynamodb-local';
import { opsPerSecond, percentile, type Benchmark, type BenchRow } from './harness';

const AGENT = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const RULES = storeRulesOf({ memoryRetentionHours: 24, magneticRetentionDays: 3650, magneticWrites: true });

function messages(count: number, at = () => new Date()): EdgeMessage[] {
  const generate = createMessageGenerator({
    devices: 10,
    items: 10,
    values: 10,
    types: ['state'],
    plantId: 'plant-1',
    keepAliveIntervalMs: 60_000,
  });
  return Array.from({ length: count }, () => toEdge(generate(at()), { now: at }));
}

function core(message: unknown) {
  const result = validateMessage(message, 'edge');
  if (!result.ok) throw new Error('bench message is invalid');
  return rowsOf(toCloud(result.message, { now: () => new Date(), agentId: AGENT, ingestionId: 'bench' }));
}

const ms = (samples: number[]) => ({
  p50: percentile(samples, 50),
  p99: percentile(samples, 99),
  max: Math.max(...samples),
});

async function ledgerRate(ledger: IngestLedger, batches: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < batches; i++) {
    const keys: MessageKey[] = Array.from({ length: 100 }, () => ({ agentId: AGENT, messageId: randomUUID() }));
    await ledger.claim(keys, new Date());
    await ledger.complete(keys, new Date());
  }
  return (batches * 100) / ((performance.now() - started) / 1000);
}

const bench: Benchmark = {
  name: 'ingest',
  async run(ctx) {
    const minMs = ctx.quick ? 200 : 2000;
    const rows: BenchRow[] = [];
    const [sample] = messages(1);
    const text = JSON.stringify(sample);

    ctx.progress('core: floor, validate+enrich+map, store rules');
    const floor = await opsPerSecond(() => JSON.stringify(JSON.parse(text)), minMs);
    const hot = await opsPerSecond(() => core(JSON.parse(text)), minMs);
    const mapped = core(JSON.parse(text));
    const rules = await opsPerSecond(
      () => storeRuleViolations({ customerId: 'c', states: mapped.states, events: mapped.events }, new Date(), RULES),
      minMs,
    );
    rows.push(
      { case: 'floor: JSON.parse+stringify 10x10 message', metric: 'messages/s', value: floor },
      {
        case: 'core: parse+validate+enrich+map 10x10',
        metric: 'messages/s',
        value: hot,
        note: `${(floor / hot).toFixed(2)}x the floor's time`,
      },
      { case: 'core: store rules of a 10x10 message (times, record sizes)', metric: 'messages/s', value: rules },
    );

    ctx.progress('Timestream writer against a mocked client: one batch of 1,000 messages');
    const mock = mockClient(TimestreamWriteClient);
    mock.on(WriteRecordsCommand).resolves({});
    const timestream = timestreamTelemetryStore({
      database: 'db',
      statesTable: 'States',
      eventsTable: 'Events',
      client: new TimestreamWriteClient({ region: 'eu-west-1' }),
    });
    const thousand = messages(1000).map((m) => core(m));
    await timestream.write({ customerId: 'c', states: thousand.flatMap((r) => r.states), events: [] });
    const calls = mock.commandCalls(WriteRecordsCommand);
    const records = calls.reduce((n, c) => n + (c.args[0].input.Records?.length ?? 0), 0);
    rows.push({
      case: 'Timestream: one write of 1,000 10x10 messages',
      metric: 'WriteRecords calls',
      value: calls.length,
      note: `${(records / calls.length).toFixed(0)} records/call (limit 100)`,
    });
    mock.restore();

    const dir = await mkdtemp(path.join(tmpdir(), 'bench-ingest-'));
    try {
      for (const size of ctx.quick ? [100] : [25, 100, 250]) {
        ctx.progress(`local batch path: ingestBatch of ${size} messages on DuckDB`);
        const file = path.join(dir, `batch-${size}.duckdb`);
        const deps: IngestDeps = {
          deadLetter: fileDeadLetter(path.join(dir, `dl-${size}`)),
          store: duckDbTelemetryStore(file),
          lake: fileDataLake(path.join(dir, `lake-${size}`)),
          liveness: { record: async () => undefined },
          ledger: duckDbIngestLedger(path.join(dir, `ledger-${size}.duckdb`)),
          directory: {
            getAgent: async (agentId) => ({ agentId, customerId: 'c' }),
            getPlant: async (plantId) => ({ plantId, customerId: 'c' }),
          },
          ingestionId: 'bench',
          now: () => new Date(),
          maxPayloadBytes: 128 * 1024,
          storeRules: RULES,
          log: () => undefined,
        };
        const total = ctx.quick ? 1000 : 10_000;
        const times: number[] = [];
        let cpu = 0;
        const started = performance.now();
        for (let done = 0; done < total; done += size) {
          const events = messages(size).map((m) => ({
            payload: Buffer.from(JSON.stringify(m)).toString('base64'),
            agentId: AGENT,
            clientId: AGENT,
            receivedAt: Date.now(),
          }));
          const t = performance.now();
          const u = process.cpuUsage();
          const outcomes = await ingestBatch(events, deps);
          const c = process.cpuUsage(u);
          cpu += (c.user + c.system) / 1000;
          times.push(performance.now() - t);
          if (outcomes.some((o) => o.status !== 'stored'))
            throw new Error(
              `a bench message was not stored: ${JSON.stringify(outcomes.find((o) => o.status !== 'stored'))}`,
            );
        }
        const seconds = times.reduce((a, b) => a + b, 0) / 1000;
        const t = ms(times);
        rows.push({
          case: `local batch of ${size} (ledger + rows + lake, DuckDB)`,
          metric: 'messages/s',
          value: total / seconds,
          note: `per batch p50 ${t.p50.toFixed(0)} / p99 ${t.p99.toFixed(0)} / max ${t.max.toFixed(0)} ms; CPU ${(cpu / total).toFixed(2)} ms/message; ${((performance.now() - started) / 1000).toFixed(0)} s incl. generating`,
        });
        await closeTelemetryDatabase(file);
      }

      // Batches of varying size (as the broker's are) over ~1M rows: DuckDB's defaults checkpoint
      // inside the commit that crosses 16MB and merge partial row groups every few checkpoints;
      // the store checkpoints in the background at DUCKDB_CHECKPOINT_THRESHOLD without merging.
      const sizes = Array.from({ length: ctx.quick ? 30 : 250 }, (_, i) => 10 + ((i * 7919) % 71));
      for (const variant of [
        'DuckDB defaults (checkpoint in the commit at 16MB, row-group merges)',
        'the store (background checkpoint at 32MB, no merges)',
      ]) {
        ctx.progress(`DuckDB writes of varying batches: ${variant}`);
        const file = path.join(dir, `writes-${variant.length}.duckdb`);
        let write: (states: ReturnType<typeof core>['states']) => Promise<void>;
        let close: () => Promise<void>;
        if (variant.startsWith('DuckDB')) {
          const db = await DuckDBInstance.create(file, {
            threads: instanceOptions().threads!,
            memory_limit: instanceOptions().memory_limit!,
          });
          const connection = await db.connect();
          for (const statement of TELEMETRY_DDL) await connection.run(statement);
          write = (states) => writeTelemetry(connection, { customerId: 'c', states, events: [] });
          close = async () => {
            connection.closeSync();
            db.closeSync();
          };
        } else {
          const store = duckDbTelemetryStore(file);
          write = async (states) => void (await store.write({ customerId: 'c', states, events: [] }));
          close = () => closeTelemetryDatabase(file);
        }
        const times: number[] = [];
        let rowsWritten = 0;
        for (const size of sizes) {
          const states = messages(size).flatMap((m) => core(m).states);
          const t = performance.now();
          await write(states);
          times.push(performance.now() - t);
          rowsWritten += states.length;
        }
        await close();
        const t = ms(times);
        rows.push({
          case: `DuckDB writes of 10-80 messages, ${variant}`,
          metric: 'max ms',
          value: t.max,
          note: `p50 ${t.p50.toFixed(0)} / p99 ${t.p99.toFixed(0)} ms over ${times.length} batches, ${rowsWritten.toLocaleString('en-US')} rows`,
        });
      }

      ctx.progress('ingest ledger: DynamoDB Local against DuckDB, batches of 100');
      const dynamo = await startDynamoDbLocal('bench-ledger');
      try {
        const batches = ctx.quick ? 3 : 20;
        const onDynamo = await ledgerRate(
          dynamoDbIngestLedger(DynamoDBDocumentClient.from(dynamo.client), dynamo.tableName),
          batches,
        );
        const onDuck = await ledgerRate(duckDbIngestLedger(path.join(dir, 'ledger.duckdb')), batches);
        rows.push(
          {
            case: 'ingest ledger on DynamoDB Local (claim + complete, 100 a batch)',
            metric: 'messages/s',
            value: onDynamo,
            note: 'deployed: DynamoDB',
          },
          {
            case: 'ingest ledger in DuckDB (claim + complete, 100 a batch)',
            metric: 'messages/s',
            value: onDuck,
            note: 'the local stack',
          },
        );
        await closeTelemetryDatabase(path.join(dir, 'ledger.duckdb'));
      } finally {
        await dynamo.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

export default bench;
