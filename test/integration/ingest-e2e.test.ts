// Issue 5's guarantees end to end: messages of every kind, some invalid, published through the
// local broker to the running offline stack, all end up as rows (counted through the query API)
// or in the dead letter; publishing them all again changes no row count.
// On the run's shared stack (vitest.config.ts, integration-stack): the file has a customer and
// agent of its own and counts only its own rows, lake lines and dead letters.
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEdge, type BaseMessage } from '../../lib/gdm';
import { createMessageGenerator } from '../../lib/gdm/simulator';
import { runAdmin } from '../../lib/cli/admin/main';
import { agentOf } from '../../lib/ingest/dead-letter';
import type { DeadLetterEntry } from '../../lib/ingest/ports';
import type { OfflineStack } from '../support/offline-stack';
import { waitUntil } from '../support/ports';
import { sharedOfflineStack } from '../support/shared-stack';
import { query, tenantAccess, windowAroundNow, type TenantAccess } from '../support/stack-client';

async function files(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? files(path.join(root, e.name)) : Promise.resolve([path.join(root, e.name)]))),
  );
  return nested.flat();
}

/** The lake's lines of one customer (each line names its customer). */
const lakeLines = async (dataDir: string, customer: string) =>
  (await Promise.all((await files(path.join(dataDir, 'lake'))).map((f) => readFile(f, 'utf8'))))
    .join('')
    .split('\n')
    .filter(Boolean)
    .filter((l) => (JSON.parse(l) as { customer: string }).customer === customer);
// Dead-letter files are written under a temporary name (.<name>.<id>.tmp) and renamed: skip those.
// Only the entries of this file's agents count (other files on the stack dead-letter theirs, and
// may replay them meanwhile, which moves an entry away between the listing and its read: skipped).
const deadLetterReasons = async (dataDir: string, agents: readonly string[]) =>
  (
    await Promise.all(
      (await files(path.join(dataDir, 'dead-letter')))
        .filter((f) => !path.basename(f).startsWith('.'))
        .map(async (f) => {
          const text = await readFile(f, 'utf8').catch((error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') return undefined;
            throw error;
          });
          return text === undefined ? undefined : (JSON.parse(text) as DeadLetterEntry);
        }),
    )
  )
    .filter((e): e is DeadLetterEntry => e !== undefined && agents.includes(agentOf(e) ?? ''))
    .map((e) => e.reason);

describe('ingest end to end through the local broker', () => {
  let stack: OfflineStack;
  let access: TenantAccess;
  const agentId = randomUUID();
  const unknownAgent = randomUUID();
  const ours = [agentId, unknownAgent];
  const valid: string[] = [];
  const invalid: Array<{ payload: string; clientId: string; reason: string }> = [];
  let expectedStates = 0;
  let expectedEvents = 0;

  beforeAll(async () => {
    stack = await sharedOfflineStack();
    access = await tenantAccess(stack, `e2e-${randomBytes(3).toString('hex')}`);
    const where = ['--dynamodb-endpoint', `http://127.0.0.1:${stack.ports.dynamodb}`];
    let err = '';
    const registered = await runAdmin(
      ['agents', 'create', '--customer', access.customerId, '--agent', agentId, ...where],
      { stdout: { write: () => undefined }, stderr: { write: (t: string) => (err += t) } },
    );
    if (registered !== 0) throw new Error(`agents create: ${err}`);
    const generate = createMessageGenerator({
      devices: 4,
      items: 3,
      values: 2,
      types: ['state', 'alarm', 'event', 'keep-alive'],
      plantId: access.plantId,
      keepAliveIntervalMs: 30_000,
    });
    for (let i = 0; i < 40; i++) {
      const edge = toEdge(generate(new Date()), { now: () => new Date() });
      const values = (edge.data ?? []).reduce((n, item) => n + item.values.length, 0);
      if (edge.messageType.startsWith('state')) expectedStates += values;
      else if (!edge.messageType.startsWith('keep-alive')) expectedEvents += values;
      valid.push(JSON.stringify(edge));
    }
    const base: BaseMessage = {
      messageId: randomUUID(),
      messageType: 'state',
      messageVersion: '1.0',
      data: [{ name: 'x', values: [{ value: 1 }] }],
    };
    const good = toEdge(base, { now: () => new Date(), deviceId: 'dev-x' });
    invalid.push(
      { payload: '{ not json', clientId: agentId, reason: 'NOT_JSON' },
      { payload: JSON.stringify({ ...good, messageId: 'NOPE' }), clientId: agentId, reason: 'INVALID_MESSAGE' },
      {
        payload: JSON.stringify({ ...good, messageId: randomUUID(), metadata: { plantId: 'someone-elses-plant' } }),
        clientId: agentId,
        reason: 'FOREIGN_PLANT',
      },
      {
        payload: JSON.stringify({ ...good, messageId: randomUUID() }),
        clientId: unknownAgent,
        reason: 'UNKNOWN_AGENT',
      },
    );
  });
  afterAll(async () => stack?.stop());

  async function publishAll(): Promise<void> {
    const agent = await mqtt.connectAsync(stack.mqttUrl, { clientId: agentId });
    await Promise.all(valid.map((payload) => agent.publishAsync(`gdm/${agentId}/messages`, payload, { qos: 1 })));
    for (const bad of invalid.filter((b) => b.clientId === agentId))
      await agent.publishAsync(`gdm/${bad.clientId}/messages`, bad.payload, { qos: 1 });
    await agent.endAsync();
    for (const bad of invalid.filter((b) => b.clientId !== agentId)) {
      const stranger = await mqtt.connectAsync(stack.mqttUrl, { clientId: bad.clientId });
      await stranger.publishAsync(`gdm/${bad.clientId}/messages`, bad.payload, { qos: 1 });
      await stranger.endAsync();
    }
  }

  async function counts() {
    const window = windowAroundNow();
    const states = await query(stack, access.accessToken, 'States | count', window);
    const events = await query(stack, access.accessToken, 'Events | count', window);
    expect(states.status).toBe(200);
    return { states: states.body.data?.rows[0]?.[0], events: events.body.data?.rows[0]?.[0] };
  }

  /** The broker acknowledges on receipt (as IoT Core does): wait until every outcome is written. */
  async function settled(lake: number, deadLetters: number): Promise<void> {
    await waitUntil(
      async () =>
        (await lakeLines(stack.dataDir, access.customerId)).length >= lake &&
        (await deadLetterReasons(stack.dataDir, ours)).length >= deadLetters,
      30_000,
      'every message to be stored or dead-lettered',
    );
  }

  it('accounts for every message: stored (rows and lake) or dead-lettered with its reason', async () => {
    await publishAll();
    await settled(valid.length, invalid.length);
    expect(await counts()).toEqual({ states: expectedStates, events: expectedEvents });
    expect(await lakeLines(stack.dataDir, access.customerId)).toHaveLength(valid.length);
    expect((await deadLetterReasons(stack.dataDir, ours)).sort()).toEqual(invalid.map((b) => b.reason).sort());
  });

  it('doubles nothing when everything is published again', async () => {
    await publishAll();
    // Invalid messages are refused again, each time with its reason; duplicates write nothing.
    await settled(valid.length, invalid.length * 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(await counts()).toEqual({ states: expectedStates, events: expectedEvents });
    expect(await lakeLines(stack.dataDir, access.customerId)).toHaveLength(valid.length);
    expect(await deadLetterReasons(stack.dataDir, ours)).toHaveLength(invalid.length * 2);
  });
});
