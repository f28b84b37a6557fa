// The ingest core on real engines (DynamoDB Local, DuckDB, local files): every message is stored
// or dead-lettered with a precise reason, redelivery doubles nothing, keep-alives feed liveness.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withConnection } from '../../lib/adapters/duckdb/database';
import { duckDbTelemetryStore } from '../../lib/adapters/duckdb/telemetry-store';
import { dynamoDbIngestLedger } from '../../lib/adapters/dynamodb/ingest-ledger';
import { dynamoDbLiveness } from '../../lib/adapters/dynamodb/liveness';
import { dynamoDbRegistry } from '../../lib/adapters/dynamodb/registry';
import { fileDataLake } from '../../lib/adapters/files/data-lake';
import { fileDeadLetter } from '../../lib/adapters/files/dead-letter';
import { toEdge } from '../../lib/gdm';
import { ingestBatch, ingestRuleEvent, type IngestDeps } from '../../lib/ingest/ingest';
import { storeRulesOf } from '../../lib/telemetry/store-rules';
import { ingestQueueRecords } from '../../lib/ingest/batch';
import type { DynamoDbLocal } from '../support/dynamodb-local';
import { sharedDynamoDb } from '../support/shared-dynamodb';

const AGENT = '0f6f7a2e-1c3d-4b5a-8e9f-0a1b2c3d4e5f';
const OTHER_AGENT = '1f6f7a2e-1c3d-4b5a-8e9f-0a1b2c3d4e5f';
const NOW = new Date('2026-03-01T12:00:00.000Z');

function edge(
  messageType: string,
  data: unknown[],
  metadata: Record<string, unknown> = { plantId: 'plant-a' },
  deviceId = 'press-1',
) {
  return toEdge({ messageId: randomUUID(), messageType, messageVersion: '1.0', metadata, data } as never, {
    now: () => new Date('2026-03-01T11:59:59.000+01:00'),
    deviceId,
  });
}

const event = (message: unknown, agentId = AGENT, raw?: string) => ({
  payload: Buffer.from(raw ?? JSON.stringify(message)).toString('base64'),
  agentId,
  clientId: agentId,
  receivedAt: NOW.getTime(),
});

describe('ingest core on real engines', () => {
  let db: DynamoDbLocal;
  let dir: string;
  let deps: IngestDeps;
  let liveness: ReturnType<typeof dynamoDbLiveness>;
  const duckFile = () => path.join(dir, 'telemetry.duckdb');
  const count = (table: string) =>
    withConnection(duckFile(), async (c) =>
      Number((await c.runAndReadAll(`SELECT count(*)::INT AS n FROM "${table}"`)).getRowObjects()[0]?.n),
    );
  const deadLetters = async () => {
    const root = path.join(dir, 'dead-letter');
    const days = await readdir(root).catch(() => [] as string[]);
    const files = (
      await Promise.all(days.map(async (d) => (await readdir(path.join(root, d))).map((f) => path.join(root, d, f))))
    ).flat();
    return Promise.all(
      files.map(
        async (f) =>
          JSON.parse(await readFile(f, 'utf8')) as { reason: string; details: unknown[]; payloadBase64: string },
      ),
    );
  };

  beforeAll(async () => {
    db = await sharedDynamoDb('ingest-main');
    dir = await mkdtemp(path.join(tmpdir(), 'ingest-'));
    const doc = DynamoDBDocumentClient.from(db.client, { marshallOptions: { removeUndefinedValues: true } });
    const registry = dynamoDbRegistry(doc, db.tableName);
    const created = NOW.toISOString();
    await registry.createCustomer({ customerId: 'acme', name: 'Acme', createdAt: created } as never);
    await registry.createCustomer({ customerId: 'other', name: 'Other', createdAt: created } as never);
    await registry.createPlant({ plantId: 'plant-a', customerId: 'acme', name: 'A', createdAt: created } as never);
    await registry.createPlant({ plantId: 'plant-x', customerId: 'other', name: 'X', createdAt: created } as never);
    await registry.createAgent({ agentId: AGENT, customerId: 'acme', name: 'gw', createdAt: created } as never);
    liveness = dynamoDbLiveness(doc, db.tableName);
    deps = {
      deadLetter: fileDeadLetter(path.join(dir, 'dead-letter')),
      store: duckDbTelemetryStore(duckFile()),
      lake: fileDataLake(path.join(dir, 'lake')),
      liveness,
      ledger: dynamoDbIngestLedger(doc, db.tableName),
      directory: registry,
      ingestionId: 'test-hub',
      now: () => NOW,
      maxPayloadBytes: 128 * 1024,
      storeRules: storeRulesOf({ memoryRetentionHours: 24, magneticRetentionDays: 3650, magneticWrites: true }),
      log: () => undefined,
    };
  });
  afterAll(async () => {
    await db?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('stores a state message as one States row per value item, with the cloud columns', async () => {
    const message = edge('state', [
      {
        name: 'temperature',
        metadata: { unit: 'degC', equipmentId: 'eq-7' },
        values: [{ value: 21.5, deviceTimestamp: '2026-03-01T12:59:58.250125+01:00' }, { value: 22 }],
      },
    ]);
    const outcome = await ingestRuleEvent(event(message), deps);
    expect(outcome).toMatchObject({ status: 'stored', rows: 2, rejected: 0 });
    const rows = await withConnection(duckFile(), async (c) =>
      (
        await c.runAndReadAll(
          `SELECT "CustomerId", strftime("Timestamp", '%Y-%m-%dT%H:%M:%S.%f') AS ts, "PlantId", "Uid", "IngestionId", "Unit", "EquipmentId", "Value"::VARCHAR AS v FROM "States" WHERE "MessageId" = '${message.messageId}' ORDER BY ts`,
        )
      ).getRowObjects(),
    );
    expect(rows).toEqual([
      {
        CustomerId: 'acme',
        ts: '2026-03-01T10:59:59.000000',
        PlantId: 'plant-a',
        Uid: `${AGENT}_press-1`,
        IngestionId: 'test-hub',
        Unit: 'degC',
        EquipmentId: 'eq-7',
        v: '22',
      },
      {
        CustomerId: 'acme',
        ts: '2026-03-01T11:59:58.250125',
        PlantId: 'plant-a',
        Uid: `${AGENT}_press-1`,
        IngestionId: 'test-hub',
        Unit: 'degC',
        EquipmentId: 'eq-7',
        v: '21.5',
      },
    ]);
  });

  it('routes alarms and events to Events with their metadata columns', async () => {
    const alarm = edge('alarm:door-open', [
      {
        name: 'door',
        metadata: { active: true, acknowledged: false, text: 'Door open', severity: 3, state: 'RAISED' },
        values: [{ value: null, deviceTimestamp: '2026-03-01T11:00:00Z' }],
      },
    ]);
    expect(await ingestRuleEvent(event(alarm), deps)).toMatchObject({ status: 'stored', rows: 1 });
    const row = await withConnection(
      duckFile(),
      async (c) =>
        (
          await c.runAndReadAll(
            `SELECT "MessageType", "Text", "State", "Severity"::VARCHAR AS sev, "Active", "Acknowledged" FROM "Events" WHERE "MessageId" = '${alarm.messageId}'`,
          )
        ).getRowObjects()[0],
    );
    expect(row).toEqual({
      MessageType: 'alarm:door-open',
      Text: 'Door open',
      State: 'RAISED',
      sev: '3',
      Active: true,
      Acknowledged: false,
    });
  });

  it('doubles nothing when a message is delivered again', async () => {
    const message = edge('state', [{ name: 'pressure', values: [{ value: 6 }, { value: 7 }, { value: 8 }] }]);
    const before = await count('States');
    expect((await ingestRuleEvent(event(message), deps)).status).toBe('stored');
    expect(await ingestRuleEvent(event(message), deps)).toEqual({ status: 'duplicate', messageId: message.messageId });
    expect(await count('States')).toBe(before + 3);
  });

  it('replaces the rows of a message whose earlier run did not finish', async () => {
    const message = edge('state', [{ name: 'flow', values: [{ value: 1 }, { value: 2 }] }]);
    const before = await count('States');
    // A run that wrote its rows and then failed before completing its claim.
    expect(await deps.ledger.claim([{ agentId: AGENT, messageId: message.messageId }], NOW)).toEqual(['new']);
    expect((await ingestRuleEvent(event(message), deps)).status).toBe('stored');
    expect(await count('States')).toBe(before + 2);
    expect(await deps.ledger.claim([{ agentId: AGENT, messageId: message.messageId }], NOW)).toEqual(['done']);
  });

  it('records keep-alives as device liveness and finds silent devices', async () => {
    const keepAlive = edge(
      'keep-alive',
      [{ name: 'keep-alive', values: [{ value: null, deviceTimestamp: '2026-03-01T11:00:00Z' }] }],
      { plantId: 'plant-a', messageIntervallInMilliseconds: 60_000 },
      'sensor-9',
    );
    expect(await ingestRuleEvent(event(keepAlive), deps)).toMatchObject({ status: 'stored', rows: 0 });
    // Due 3 intervals after it was last seen: silent at 11:03:01, not at 11:02:59.
    expect(
      (await liveness.silentDevices('acme', new Date('2026-03-01T11:02:59Z'))).map((d) => d.deviceId),
    ).not.toContain('sensor-9');
    const silent = await liveness.silentDevices('acme', new Date('2026-03-01T11:03:01Z'));
    expect(silent.find((d) => d.deviceId === 'sensor-9')).toMatchObject({
      plantId: 'plant-a',
      intervalMs: 60_000,
      lastSeen: '2026-03-01T11:00:00.000000Z',
      messagesSeen: 1,
    });
  });

  it('writes every stored message to the lake under customer=/plant=/date=/', async () => {
    const files = await readdir(path.join(dir, 'lake', 'customer=acme', 'plant=plant-a', 'date=2026-03-01'));
    const lines = (
      await Promise.all(
        files.map((f) =>
          readFile(path.join(dir, 'lake', 'customer=acme', 'plant=plant-a', 'date=2026-03-01', f), 'utf8'),
        ),
      )
    )
      .join('')
      .trim()
      .split('\n');
    expect(lines.length).toBe(5); // the five stored messages of plant-a so far
    const first = JSON.parse(lines[0] as string);
    expect(first).toMatchObject({
      customer: 'acme',
      plant: 'plant-a',
      date: '2026-03-01',
      message: { agentId: AGENT, ingestionId: 'test-hub' },
    });
    expect(first.message.data[0].nameId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('dead-letters every kind of bad input with a precise reason and keeps going', async () => {
    const valid = edge('state', [{ name: 'x', values: [{ value: 1 }] }]);
    const cases: Array<[unknown, string]> = [
      [event(undefined, AGENT, 'not json at all'), 'NOT_JSON'],
      [event({ ...valid, messageId: 'NOT-A-UUID' }), 'INVALID_MESSAGE'],
      [event({ ...valid, data: [{ name: 'x', values: [{ value: { nested: 'object' } }] }] }), 'INVALID_MESSAGE'],
      [event(valid, OTHER_AGENT), 'UNKNOWN_AGENT'],
      [event({ ...valid, metadata: { plantId: 'plant-x' } }), 'FOREIGN_PLANT'],
      [event({ ...valid, metadata: { plantId: 'no-such-plant' } }), 'FOREIGN_PLANT'],
      [{ ...event(valid), clientId: OTHER_AGENT }, 'AGENT_MISMATCH'],
      [
        event(
          undefined,
          AGENT,
          JSON.stringify({
            ...valid,
            data: Array.from({ length: 20_000 }, (_, i) => ({ name: `n${i}`, values: [{ value: i }] })),
          }),
        ),
        'TOO_LARGE',
      ],
      [{ something: 'else' }, 'INVALID_MESSAGE'],
    ];
    const before = (await deadLetters()).length;
    for (const [input, reason] of cases)
      expect(await ingestRuleEvent(input, deps)).toEqual({ status: 'dead-lettered', reason });
    const entries = (await deadLetters()).slice(0);
    expect(entries.length).toBe(before + cases.length);
    const invalid = entries.find(
      (e) => e.reason === 'INVALID_MESSAGE' && Buffer.from(e.payloadBase64, 'base64').toString().includes('NOT-A-UUID'),
    );
    expect(invalid?.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: '/messageId', code: 'GDM_MESSAGE_ID_FORMAT' })]),
    );
  });

  it('runs queue batches through the same core', async () => {
    const a = edge('state', [{ name: 'batch', values: [{ value: 1 }] }]);
    const result = await ingestQueueRecords(
      [
        { messageId: 'q1', body: JSON.stringify(event(a)) },
        { messageId: 'q2', body: 'garbage' },
      ],
      deps,
    );
    expect(result.batchItemFailures).toEqual([]);
    expect(result.outcomes.map((o) => o.status)).toEqual(['stored', 'dead-lettered']);
  });

  it('takes one ledger claim, one store write, one lake write and one completion for a whole batch', async () => {
    const counts = { claim: 0, complete: 0, write: 0, lake: 0 };
    const counted: IngestDeps = {
      ...deps,
      ledger: {
        claim: (k, n) => (counts.claim++, deps.ledger.claim(k, n)),
        complete: (k, n) => (counts.complete++, deps.ledger.complete(k, n)),
      },
      store: { write: (b) => (counts.write++, deps.store.write(b)) },
      lake: { put: (r) => (counts.lake++, deps.lake.put(r)) },
    };
    const messages = Array.from({ length: 40 }, (_, i) =>
      edge('state', [{ name: `batch-${i}`, values: [{ value: i }, { value: i + 1 }] }]),
    );
    const before = await count('States');
    const outcomes = await ingestBatch(
      [...messages.map((m) => event(m)), event(messages[0]), event(undefined, AGENT, '{oops')],
      counted,
    );
    expect(outcomes.map((o) => o.status)).toEqual([...Array(40).fill('stored'), 'duplicate', 'dead-lettered']);
    expect(counts).toEqual({ claim: 1, complete: 1, write: 1, lake: 1 });
    expect(await count('States')).toBe(before + 80);
  });

  it('reports the messages of a failed store write as failed, and their retry stores them once', async () => {
    let crash = true;
    const flaky: IngestDeps = {
      ...deps,
      // Writes, then fails as if the process died before completing the claims.
      store: {
        write: async (b) => {
          const r = await deps.store.write(b);
          if (crash) throw new Error('connection reset');
          return r;
        },
      },
    };
    const messages = Array.from({ length: 5 }, (_, i) =>
      edge('state', [{ name: `flaky-${i}`, values: [{ value: i }, { value: -i }] }]),
    );
    const before = await count('States');
    const first = await ingestBatch(
      messages.map((m) => event(m)),
      flaky,
    );
    expect(first).toEqual(Array(5).fill({ status: 'failed', error: 'connection reset' }));
    crash = false;
    const second = await ingestBatch(
      messages.map((m) => event(m)),
      flaky,
    );
    expect(second.map((o) => o.status)).toEqual(Array(5).fill('stored'));
    expect(await count('States')).toBe(before + 10);
    expect((await ingestBatch([event(messages[2])], flaky))[0]?.status).toBe('duplicate');
  });

  it('dead-letters the same refusal once, however often the message comes back', async () => {
    const garbage = { ...event(undefined, AGENT, 'still not json'), receivedAt: NOW.getTime() + 1234 };
    const before = (await deadLetters()).length;
    expect(await ingestRuleEvent(garbage, deps)).toEqual({ status: 'dead-lettered', reason: 'NOT_JSON' });
    expect(await ingestRuleEvent(garbage, deps)).toEqual({ status: 'dead-lettered', reason: 'NOT_JSON' });
    expect((await deadLetters()).length).toBe(before + 1);
  });

  it('dead-letters whole, and stores nothing of, a message the deployed store would refuse', async () => {
    const before = await count('States');
    const ahead = edge('state', [
      { name: 'clock', values: [{ value: 1 }, { value: 2, deviceTimestamp: '2026-03-01T12:20:00Z' }] },
    ]);
    const large = edge('state', [{ name: 'big', metadata: { note: 'x'.repeat(2100) }, values: [{ value: 1 }] }]);
    expect(await ingestRuleEvent(event(ahead), deps)).toEqual({ status: 'dead-lettered', reason: 'TIME_IN_FUTURE' });
    expect(await ingestRuleEvent(event(large), deps)).toEqual({ status: 'dead-lettered', reason: 'RECORD_TOO_LARGE' });
    expect(await count('States')).toBe(before);
    const entries = (await deadLetters()).filter((e) => e.reason === 'TIME_IN_FUTURE');
    expect(entries).toHaveLength(1);
    expect(entries[0]?.details).toEqual([
      expect.objectContaining({ code: 'TIME_IN_FUTURE', table: 'States', index: 1 }),
    ]);
  });
});
