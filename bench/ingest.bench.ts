// Ingest (issue 5): the in-process core (validate, enrich, map to rows) of a 10x10 message beside
// JSON.parse + JSON.stringify of the same message; the Timestream adapter's calls against a mocked
// client; DuckDB inserts. The end-to-end figure (publish -> queryable) is bench/ingest-e2e.bench.ts.
import { TimestreamWriteClient, WriteRecordsCommand } from '@aws-sdk/client-timestream-write';
import { mockClient } from 'aws-sdk-client-mock';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { duckDbTelemetryStore } from '../lib/adapters/duckdb/telemetry-store';
import { timestreamTelemetryStore } from '../lib/adapters/timestream/telemetry-store';
import { toCloud, toEdge, validateMessage, type EdgeMessage } from '../lib/gdm';
import { createMessageGenerator } from '../lib/gdm/simulator';
import { rowsOf } from '../lib/ingest/rows';
import { opsPerSecond, type Benchmark, type BenchRow } from './harness';

const AGENT = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';

function messages(count: number, items = 10, values = 10): EdgeMessage[] {
  let seed = 7;
  const random = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const generate = createMessageGenerator({ devices: 20, items, values, types: ['state'], plantId: 'plant-1', keepAliveIntervalMs: 60_000, random });
  return Array.from({ length: count }, (_, i) => toEdge(generate(new Date(Date.UTC(2026, 0, 1, 0, 0, i))), { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, i, 250)) }));
}

function core(message: unknown) {
  const result = validateMessage(message, 'edge');
  if (!result.ok) throw new Error('bench message is invalid');
  return rowsOf(toCloud(result.message, { now: () => new Date(), agentId: AGENT, ingestionId: 'bench' }));
}

const bench: Benchmark = {
  name: 'ingest',
  async run(ctx) {
    const minMs = ctx.quick ? 200 : 2000;
    const rows: BenchRow[] = [];
    const [sample] = messages(1);
    const text = JSON.stringify(sample);

    ctx.progress('core: floor and validate+enrich+map');
    const floor = opsPerSecond(() => JSON.stringify(JSON.parse(text)), minMs);
    const perMessage = core(JSON.parse(text)).states.length;
    const hot = opsPerSecond(() => core(JSON.parse(text)), minMs);
    rows.push(
      { case: 'floor: JSON.parse+stringify 10x10 message', metric: 'messages/s', value: floor },
      { case: 'core: parse+validate+enrich+map 10x10', metric: 'messages/s', value: hot, note: `${(floor / hot).toFixed(2)}x the floor's time` },
      { case: 'core: parse+validate+enrich+map 10x10', metric: 'rows/s', value: hot * perMessage },
    );

    ctx.progress('Timestream adapter against a mocked client, 1,000 messages');
    const mock = mockClient(TimestreamWriteClient);
    mock.on(WriteRecordsCommand).resolves({});
    const timestream = timestreamTelemetryStore({ database: 'db', statesTable: 'States', eventsTable: 'Events', client: new TimestreamWriteClient({ region: 'eu-west-1' }) });
    const batch = messages(1000).map((m) => core(m));
    for (const r of batch) await timestream.write({ customerId: 'c', states: r.states, events: r.events });
    const calls = mock.commandCalls(WriteRecordsCommand);
    const records = calls.reduce((n, c) => n + (c.args[0].input.Records?.length ?? 0), 0);
    rows.push(
      { case: 'Timestream writes, 1,000 10x10 messages', metric: 'WriteRecords calls', value: calls.length, note: 'one message = 100 rows = 1 call' },
      { case: 'Timestream writes, 1,000 10x10 messages', metric: 'records/call', value: records / calls.length, note: 'limit 100' },
    );
    mock.restore();

    ctx.progress('DuckDB adapter inserts');
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-duck-'));
    try {
      const store = duckDbTelemetryStore(path.join(dir, 't.duckdb'));
      const n = ctx.quick ? 100 : 1000;
      const started = performance.now();
      for (const r of batch.slice(0, n)) await store.write({ customerId: 'c', states: r.states, events: r.events });
      const seconds = (performance.now() - started) / 1000;
      rows.push({ case: `DuckDB writes, ${n} messages x 100 rows, one transaction each`, metric: 'rows/s', value: (n * perMessage) / seconds, note: `${(n / seconds).toFixed(0)} messages/s` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

export default bench;
