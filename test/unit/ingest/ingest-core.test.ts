// The ingest core's branches on fakes of its ports (test/support/fakes): every dead-letter reason,
// duplicates in a batch and across deliveries, a retried claim replacing rows, store rejections,
// and each dependency failing. The same core on DynamoDB Local, DuckDB and files is in
// test/integration/ingest-core.test.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toEdge } from '../../../lib/gdm';
import { ingestBatch, ingestRuleEvent, type IngestDeps } from '../../../lib/ingest/ingest';
import { storeRulesOf } from '../../../lib/telemetry/store-rules';
import { fakeDeadLetter, fakeLake, fakeLedger, fakeLiveness, fakeStore } from '../../support/fakes/ingest';
import { fakeRegistry } from '../../support/fakes/registry';

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
    now: () => new Date('2026-03-01T11:59:59.000Z'),
    deviceId,
  });
}
const state = (values: number[] = [1, 2]) =>
  edge('state', [{ name: 'temperature', values: values.map((value) => ({ value })) }]);
const event = (message: unknown, agentId = AGENT, raw?: string) => ({
  payload: Buffer.from(raw ?? JSON.stringify(message)).toString('base64'),
  agentId,
  clientId: agentId,
  receivedAt: NOW.getTime(),
});

async function setup() {
  const registry = fakeRegistry();
  const created = NOW.toISOString();
  await registry.createCustomer({ customerId: 'acme', name: 'Acme', createdAt: created });
  await registry.createCustomer({ customerId: 'other', name: 'Other', createdAt: created });
  await registry.createPlant({ plantId: 'plant-a', customerId: 'acme', name: 'A', createdAt: created });
  await registry.createPlant({ plantId: 'plant-x', customerId: 'other', name: 'X', createdAt: created });
  await registry.createAgent({ agentId: AGENT, customerId: 'acme', name: 'gw', createdAt: created });
  const fakes = {
    deadLetter: fakeDeadLetter(),
    store: fakeStore(),
    lake: fakeLake(),
    liveness: fakeLiveness(),
    ledger: fakeLedger(),
  };
  const logs: string[] = [];
  const deps: IngestDeps = {
    ...fakes,
    directory: registry,
    ingestionId: 'test-hub',
    now: () => NOW,
    maxPayloadBytes: 4096,
    storeRules: storeRulesOf({ memoryRetentionHours: 24, magneticRetentionDays: 3650, magneticWrites: true }),
    log: (message) => logs.push(message),
  };
  return { ...fakes, deps, logs };
}

describe('ingest core on fakes', () => {
  it('stores a state message: one claim, one write, one lake record, one completion', async () => {
    // Prepare
    const { deps, store, lake, ledger } = await setup();
    const message = state([21.5, 22]);
    // Act
    const outcome = await ingestRuleEvent(event(message), deps);
    // Assess
    expect(outcome).toEqual({ status: 'stored', messageId: message.messageId, rows: 2, rejected: 0 });
    expect(store.writes).toHaveLength(1);
    expect(store.writes[0]).toMatchObject({ customerId: 'acme', events: [] });
    expect(store.writes[0]?.states.map((r) => r.Value)).toEqual([21.5, 22]);
    expect(store.writes[0]?.replace).toBeUndefined();
    expect(lake.records).toEqual([
      expect.objectContaining({ customerId: 'acme', plantId: 'plant-a', date: '2026-03-01' }),
    ]);
    expect(ledger.calls).toEqual([
      { method: 'claim', keys: 1 },
      { method: 'complete', keys: 1 },
    ]);
  });

  it.each([
    ['NOT_JSON', () => event(undefined, AGENT, 'not json at all')],
    ['INVALID_MESSAGE', () => event({ ...state(), messageId: 'NOT-A-UUID' })],
    ['INVALID_MESSAGE', () => ({ something: 'else' })],
    ['UNKNOWN_AGENT', () => event(state(), OTHER_AGENT)],
    ['UNKNOWN_AGENT', () => ({ payload: Buffer.from(JSON.stringify(state())).toString('base64') })],
    ['FOREIGN_PLANT', () => event({ ...state(), metadata: { plantId: 'plant-x' } })],
    ['FOREIGN_PLANT', () => event({ ...state(), metadata: { plantId: 'no-such-plant' } })],
    ['AGENT_MISMATCH', () => ({ ...event(state()), clientId: OTHER_AGENT })],
    ['TOO_LARGE', () => event(undefined, AGENT, 'x'.repeat(4097))],
    [
      'TIME_IN_FUTURE',
      () => event(edge('state', [{ name: 'clock', values: [{ value: 1, deviceTimestamp: '2026-03-01T12:20:00Z' }] }])),
    ],
    [
      'TIME_TOO_OLD',
      () => event(edge('state', [{ name: 'clock', values: [{ value: 1, deviceTimestamp: '2010-03-01T12:00:00Z' }] }])),
    ],
  ])('dead-letters %s and stores nothing of it', async (reason, input) => {
    const { deps, deadLetter, store, lake, ledger } = await setup();
    expect(await ingestRuleEvent(input(), deps)).toEqual({ status: 'dead-lettered', reason });
    expect([...deadLetter.entries.values()].map((e) => e.reason)).toEqual([reason]);
    expect(store.writes).toEqual([]);
    expect(lake.records).toEqual([]);
    expect(ledger.calls).toEqual([]);
  });

  it('keeps the payload as received and its source in the dead-letter entry', async () => {
    const { deps, deadLetter } = await setup();
    await ingestRuleEvent(event(undefined, AGENT, '{ not json'), deps);
    const [entry] = deadLetter.entries.values();
    expect(entry).toMatchObject({
      reason: 'NOT_JSON',
      time: NOW.toISOString(),
      receivedAt: NOW.toISOString(),
      source: { agentId: AGENT, clientId: AGENT },
    });
    expect(Buffer.from(entry?.payloadBase64 ?? '', 'base64').toString()).toBe('{ not json');
  });

  it('dead-letters the same refusal under the same id, so a redelivery adds no entry', async () => {
    const { deps, deadLetter } = await setup();
    const garbage = event(undefined, AGENT, 'still not json');
    await ingestRuleEvent(garbage, deps);
    await ingestRuleEvent(garbage, deps);
    expect(deadLetter.entries.size).toBe(1);
  });

  it('answers a redelivered message as a duplicate and writes nothing again', async () => {
    const { deps, store, logs } = await setup();
    const message = state();
    await ingestRuleEvent(event(message), deps);
    expect(await ingestRuleEvent(event(message), deps)).toEqual({ status: 'duplicate', messageId: message.messageId });
    expect(store.writes).toHaveLength(1);
    expect(logs).toContain('duplicate message ignored');
  });

  it('treats a second copy in the same batch as a duplicate of the first', async () => {
    const { deps, store, ledger } = await setup();
    const message = state();
    const outcomes = await ingestBatch([event(message), event(message), event(undefined, AGENT, '{oops')], deps);
    expect(outcomes.map((o) => o.status)).toEqual(['stored', 'duplicate', 'dead-lettered']);
    expect(ledger.calls[0]).toEqual({ method: 'claim', keys: 1 });
    expect(store.writes[0]?.states).toHaveLength(2);
  });

  it('asks the store to replace the rows of a message an earlier run claimed and did not finish', async () => {
    const { deps, store, ledger } = await setup();
    const message = state();
    ledger.leaveClaimed({ agentId: AGENT, messageId: message.messageId });
    expect((await ingestRuleEvent(event(message), deps)).status).toBe('stored');
    expect(store.writes[0]?.replace).toEqual([{ agentId: AGENT, messageId: message.messageId }]);
    expect(ledger.state.get(`${AGENT} ${message.messageId}`)).toBe('done');
  });

  it('writes once per customer and records keep-alives as liveness', async () => {
    const { deps, store, liveness } = await setup();
    const keepAlive = edge(
      'keep-alive',
      [{ name: 'keep-alive', values: [{ value: null, deviceTimestamp: '2026-03-01T11:00:00Z' }] }],
      { plantId: 'plant-a', messageIntervallInMilliseconds: 60_000 },
      'sensor-9',
    );
    const outcomes = await ingestBatch([event(keepAlive), event(state())], deps);
    expect(outcomes).toEqual([
      expect.objectContaining({ status: 'stored', rows: 0 }),
      expect.objectContaining({ status: 'stored', rows: 2 }),
    ]);
    expect(store.writes).toHaveLength(1);
    expect(liveness.recorded).toEqual([
      {
        customerId: 'acme',
        plantId: 'plant-a',
        uid: `${AGENT}_sensor-9`,
        agentId: AGENT,
        deviceId: 'sensor-9',
        lastSeen: '2026-03-01T11:00:00.000000Z',
        intervalMs: 60_000,
      },
    ]);
  });

  it('dead-letters as STORE_REJECTED the rows the store refuses, and counts the rest as stored', async () => {
    const { deps, store, deadLetter } = await setup();
    const message = state([1, 2, 3]);
    store.rejectWith = (batch) => [
      { table: 'States', messageId: batch.states[0]?.MessageId ?? '', reason: 'duplicate with another value' },
    ];
    expect(await ingestRuleEvent(event(message), deps)).toEqual({
      status: 'stored',
      messageId: message.messageId,
      rows: 2,
      rejected: 1,
    });
    const [entry] = deadLetter.entries.values();
    expect(entry).toMatchObject({ reason: 'STORE_REJECTED', source: { agentId: AGENT, messageId: message.messageId } });
    expect(entry?.details).toEqual([
      { table: 'States', messageId: message.messageId, reason: 'duplicate with another value' },
    ]);
  });

  it.each([
    ['the ledger claim', (f: Awaited<ReturnType<typeof setup>>) => f.ledger.failClaim.once(new Error('down'))],
    ['the store write', (f: Awaited<ReturnType<typeof setup>>) => f.store.fail.once(new Error('down'))],
    ['the lake', (f: Awaited<ReturnType<typeof setup>>) => f.lake.fail.once(new Error('down'))],
    ['the completion', (f: Awaited<ReturnType<typeof setup>>) => f.ledger.failComplete.once(new Error('down'))],
  ])('reports the batch failed when %s fails, and a retry stores each message once', async (_, breakIt) => {
    const f = await setup();
    const messages = [state([1]), state([2])];
    breakIt(f);
    expect(
      await ingestBatch(
        messages.map((m) => event(m)),
        f.deps,
      ),
    ).toEqual([
      { status: 'failed', error: 'down' },
      { status: 'failed', error: 'down' },
    ]);
    const retry = await ingestBatch(
      messages.map((m) => event(m)),
      f.deps,
    );
    expect(retry.map((o) => o.status)).toEqual(['stored', 'stored']);
    expect((await ingestBatch([event(messages[0])], f.deps))[0]?.status).toBe('duplicate');
  });

  it('reports a refused message failed when the dead letter cannot be written, and keeps the stored ones', async () => {
    const { deps, deadLetter } = await setup();
    deadLetter.fail.once(new Error('disk full'));
    const outcomes = await ingestBatch([event(state()), event(undefined, AGENT, 'nope')], deps);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'stored' }), { status: 'failed', error: 'disk full' }]);
  });

  it('throws from ingestRuleEvent when a dependency failed, so the platform retries', async () => {
    const { deps, ledger } = await setup();
    ledger.failClaim.once(new Error('throttled'));
    await expect(ingestRuleEvent(event(state()), deps)).rejects.toThrow('throttled');
  });
});
