// The dead letter on the running offline stack: an unknown agent's message and a payload that is
// not JSON are dead-lettered; after the agent is registered (the admin CLI's own code), a replay
// stores the first (queryable, in the lake) and dead-letters the second again; replaying again
// stores nothing twice.
import { randomUUID } from 'node:crypto';
import { cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEdge } from '../../lib/gdm';
import { createMessageGenerator } from '../../lib/gdm/simulator';
import { runAdmin } from '../../lib/cli/admin/main';
import { startOfflineStack, type OfflineStack } from '../support/offline-stack';
import { waitUntil } from '../support/ports';
import { demoAccess, query, windowAroundNow, type DemoAccess } from '../support/stack-client';

async function files(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? files(path.join(root, e.name)) : Promise.resolve([path.join(root, e.name)]))),
  );
  return nested.flat();
}

describe('dead-letter replay on the offline stack', () => {
  let stack: OfflineStack;
  let access: DemoAccess;
  const stranger = randomUUID();
  let rows = 0;
  let deadLetterDir: string;

  async function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const where = ['--dynamodb-endpoint', `http://127.0.0.1:${stack.ports.dynamodb}`];
    const code = await runAdmin([...args, ...where], {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
    });
    return { code, out, err };
  }

  const local = () => ['--dead-letter-dir', deadLetterDir, '--lambda-port', String(stack.ports.lambda)];
  const listed = async () =>
    (
      JSON.parse((await admin('dead-letter', 'list', '--json', ...local())).out) as {
        entries: Array<{ id: string; reason: string; agent: string }>;
      }
    ).entries;
  const strangerRows = async () =>
    (await query(stack, access.accessToken, `States | where AgentId == '${stranger}' | count`, windowAroundNow())).body
      .data?.rows[0]?.[0];
  const lakeLines = async () =>
    (await Promise.all((await files(path.join(stack.dataDir, 'lake'))).map((f) => readFile(f, 'utf8'))))
      .join('')
      .split('\n')
      .filter((l) => l.includes(stranger));

  beforeAll(async () => {
    stack = await startOfflineStack();
    deadLetterDir = path.join(stack.dataDir, 'dead-letter');
    access = await demoAccess(stack);
    const generate = createMessageGenerator({
      devices: 1,
      items: 3,
      values: 2,
      types: ['state'],
      plantId: 'demo-plant-1',
      keepAliveIntervalMs: 30_000,
    });
    const edge = toEdge(generate(new Date()), { now: () => new Date() });
    rows = (edge.data ?? []).reduce((n, item) => n + item.values.length, 0);

    const unknown = await mqtt.connectAsync(stack.mqttUrl, { clientId: stranger });
    await unknown.publishAsync(`gdm/${stranger}/messages`, JSON.stringify(edge), { qos: 1 });
    await unknown.endAsync();
    const demo = await mqtt.connectAsync(stack.mqttUrl, { clientId: access.demo.agentId });
    await demo.publishAsync(`gdm/${access.demo.agentId}/messages`, '{ not json', { qos: 1 });
    await demo.endAsync();
    await waitUntil(async () => (await listed()).length >= 2, 30_000, 'both messages to be dead-lettered');
  });
  afterAll(async () => stack?.stop());

  it('lists both refused messages with their reasons and agents', async () => {
    const entries = await listed();
    expect(entries.map((e) => [e.reason, e.agent]).sort()).toEqual(
      [
        ['NOT_JSON', access.demo.agentId],
        ['UNKNOWN_AGENT', stranger],
      ].sort(),
    );
    expect(await strangerRows()).toBe(0);
  });

  it('after the agent is registered, a replay stores the fixable message and dead-letters the other again', async () => {
    const created = await admin('agents', 'create', '--customer', 'demo', '--agent', stranger);
    expect(created.code, created.err).toBe(0);

    const replay = await admin('dead-letter', 'replay', '--all', ...local());
    expect(replay.code, replay.err).toBe(0);
    expect(replay.out).toContain('replayed 2 of 2 entries');
    expect(replay.out).toMatch(/UNKNOWN_AGENT -> stored \(/);
    expect(replay.out).toContain('NOT_JSON -> dead-lettered again: NOT_JSON');

    expect(await strangerRows()).toBe(rows);
    expect(await lakeLines()).toHaveLength(1);
    // What is left: only the new entry of the message that cannot be fixed.
    expect((await listed()).map((e) => e.reason)).toEqual(['NOT_JSON']);
    const replayed = await files(path.join(deadLetterDir, 'replayed'));
    const outcomes = await Promise.all(
      replayed.map(
        async (f) => (JSON.parse(await readFile(f, 'utf8')) as { replay: { status: string } }).replay.status,
      ),
    );
    expect(outcomes.sort()).toEqual(['dead-lettered', 'stored']);
  });

  it('a second replay stores nothing twice, even of an entry replayed before (the ingest ledger answers duplicate)', async () => {
    // As if a run had stopped after storing but before marking: the stored entry is back.
    const stored = (await files(path.join(deadLetterDir, 'replayed'))).find((f) => f.includes('UNKNOWN_AGENT'));
    await cp(stored!, path.join(deadLetterDir, path.relative(path.join(deadLetterDir, 'replayed'), stored!)));

    const again = await admin('dead-letter', 'replay', '--all', ...local());
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('replayed 2 of 2 entries');
    expect(again.out).toMatch(/UNKNOWN_AGENT -> duplicate \(/);
    expect(await strangerRows()).toBe(rows);
    expect(await lakeLines()).toHaveLength(1);
    expect((await listed()).map((e) => e.reason)).toEqual(['NOT_JSON']);
  });
});
