// Conservation under a crash: a gateway publishes at full speed, the whole stack is killed with
// SIGKILL in the middle (broker, functions, DynamoDB Local; nothing orderly), and started again
// on the same data. Without any redelivery, every message the broker acknowledged is stored
// exactly once (its journal replays what was not processed; the ledger and the replace path keep
// rows single); nothing is dead-lettered. Then everything is published again: nothing doubles.
// Last, stopping the stack leaves no process behind.
import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEdge } from '../../lib/gdm';
import { createMessageGenerator } from '../../lib/gdm/simulator';
import { journalDrained } from '../support/iot-journal';
import { startOfflineStack, type OfflineStack } from '../support/offline-stack';
import { waitUntil } from '../support/ports';
import { demoAccess, query, windowAroundNow, type DemoAccess } from '../support/stack-client';

const MESSAGES = 3000;
const ROWS = 4; // 2 data items x 2 values

async function files(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return (
    await Promise.all(
      entries.map((e) =>
        e.isDirectory() ? files(path.join(root, e.name)) : Promise.resolve([path.join(root, e.name)]),
      ),
    )
  ).flat();
}

// Two stack starts, 3000 messages twice, and waits of up to 180 s: beyond the project's 60 s.
describe('ingest conservation across a SIGKILL of the stack', { timeout: 360_000 }, () => {
  let dataDir: string;
  let stack: OfflineStack;
  let access: DemoAccess;
  const payloads: { id: string; json: string }[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'conservation-'));
    stack = await startOfflineStack({ dataDir });
    access = await demoAccess(stack);
    const generate = createMessageGenerator({
      devices: 5,
      items: 2,
      values: 2,
      types: ['state'],
      plantId: 'demo-plant-1',
      keepAliveIntervalMs: 60_000,
    });
    for (let i = 0; i < MESSAGES; i++) {
      const edge = toEdge(generate(new Date()), { now: () => new Date() });
      payloads.push({ id: edge.messageId, json: JSON.stringify(edge) });
    }
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Distinct stored messages and rows per message, through the query API. */
  async function stored(): Promise<{ ids: Set<string>; wrongRowCounts: number }> {
    const window = windowAroundNow();
    const ids = await query(stack, access.accessToken, 'States | distinct MessageId', window);
    const wrong = await query(
      stack,
      access.accessToken,
      `States | summarize n = count() by MessageId | where n != ${ROWS} | count`,
      window,
    );
    expect(ids.status).toBe(200);
    return {
      ids: new Set((ids.body.data?.rows ?? []).map((r) => String(r[0]))),
      wrongRowCounts: Number(wrong.body.data?.rows[0]?.[0] ?? -1),
    };
  }

  /**
   * Waits until the broker's journal says every message it acknowledged is processed (a file
   * read, not a query: polling queries took CPU from the ingest being waited for), then until
   * `done` holds for the stored ids, which it should at once. Gives up after 180 s and 10 s and
   * returns what is stored, so the assertions show what is missing.
   */
  async function settle(done: (ids: Set<string>) => boolean): Promise<Set<string>> {
    await waitUntil(() => journalDrained(dataDir), 180_000, 'the broker journal to be processed').catch(
      () => undefined,
    );
    let ids = new Set<string>();
    await waitUntil(
      async () => done((ids = (await stored()).ids)),
      10_000,
      'the stored messages once the journal is processed',
    ).catch(() => undefined);
    return ids;
  }

  it('stores every acknowledged message exactly once after a crash, without redelivery', async () => {
    const agentId = access.demo.agentId;
    const client = await mqtt.connectAsync(stack.mqttUrl, { clientId: agentId, reconnectPeriod: 0 });
    client.on('error', () => undefined);
    const acknowledged = new Set<string>();
    let killed = false;
    const killing = (async () => {
      await waitUntil(async () => acknowledged.size >= MESSAGES / 3, 120_000, 'a third of the messages acknowledged');
      killed = true;
      await stack.kill();
    })();
    for (const { id, json } of payloads) {
      if (killed) break;
      client.publish(`gdm/${agentId}/messages`, json, { qos: 1 }, (error) => {
        if (!error && !killed) acknowledged.add(id);
      });
      // Yield now and then so acknowledgements are read while publishing at full speed.
      if (acknowledged.size % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    await killing;
    client.end(true);
    expect(acknowledged.size).toBeGreaterThanOrEqual(MESSAGES / 3);

    stack = await startOfflineStack({ dataDir, ports: stack.ports });
    const ids = await settle((stored) => [...acknowledged].every((id) => stored.has(id)));
    const missing = [...acknowledged].filter((id) => !ids.has(id));
    expect(missing).toEqual([]);
    expect((await stored()).wrongRowCounts).toBe(0);
    expect(await files(path.join(dataDir, 'dead-letter'))).toEqual([]);
    expect(stack.output()).toMatch(/replaying \d+ message\(s\) acknowledged before the last stop/);
  });

  it('doubles nothing when every message is published again', async () => {
    const agentId = access.demo.agentId;
    const client = await mqtt.connectAsync(stack.mqttUrl, { clientId: agentId });
    await Promise.all(payloads.map(({ json }) => client.publishAsync(`gdm/${agentId}/messages`, json, { qos: 1 })));
    await client.endAsync();
    const ids = await settle((stored) => stored.size >= MESSAGES);
    expect(ids.size).toBe(MESSAGES);
    expect((await stored()).wrongRowCounts).toBe(0);
    expect(await files(path.join(dataDir, 'dead-letter'))).toEqual([]);
  });

  // The test harness's stop (test/support/offline-stack.ts), on a stack that has run under load and
  // been restarted; files on the shared stack cannot stop theirs.
  it('stops every process of the stack', async () => {
    const { ports } = stack;
    await stack.stop();
    await waitUntil(
      async () => {
        const listing = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
        return !listing.includes(`-port ${ports.dynamodb}`);
      },
      10_000,
      'DynamoDB Local to exit',
    );
    await expect(fetch(`${stack.httpUrl}/health`)).rejects.toThrow();
  });
});
