// The dead letter on the running offline stack: an unknown agent's message and a payload that is
// not JSON are dead-lettered; after the agent is registered (the admin CLI's own code), a replay
// stores the first (queryable, in the lake) and dead-letters the second again; replaying again
// stores nothing twice.
// On the run's shared stack (vitest.config.ts, integration-stack): the file has a customer and agents
// of its own, and lists and replays only the dead letters of its own agents (by entry id), not the
// other files' (`replay --all` is covered by the admin CLI's unit tests).
import { randomBytes, randomUUID } from 'node:crypto';
import { cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEdge } from '../../lib/gdm';
import { agentOf } from '../../lib/ingest/dead-letter';
import type { DeadLetterEntry } from '../../lib/ingest/ports';
import { createMessageGenerator } from '../../lib/gdm/simulator';
import { runAdmin } from '../../lib/cli/admin/main';
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

describe('dead-letter replay on the offline stack', () => {
  let stack: OfflineStack;
  let access: TenantAccess;
  const stranger = randomUUID();
  const agent = randomUUID();
  const ours = (agentId: string | undefined) => agentId === stranger || agentId === agent;
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
    ).entries.filter((e) => ours(e.agent));
  /** This file's entries that a replay has moved aside, each with its source. */
  const replayedFiles = async () =>
    (
      await Promise.all(
        (await files(path.join(deadLetterDir, 'replayed'))).map(async (f) => ({
          file: f,
          entry: JSON.parse(await readFile(f, 'utf8')) as DeadLetterEntry & { replay: { status: string } },
        })),
      )
    ).filter(({ entry }) => ours(agentOf(entry)));
  const strangerRows = async () =>
    (await query(stack, access.accessToken, `States | where AgentId == '${stranger}' | count`, windowAroundNow())).body
      .data?.rows[0]?.[0];
  const lakeLines = async () =>
    (await Promise.all((await files(path.join(stack.dataDir, 'lake'))).map((f) => readFile(f, 'utf8'))))
      .join('')
      .split('\n')
      .filter((l) => l.includes(stranger));

  beforeAll(async () => {
    stack = await sharedOfflineStack();
    deadLetterDir = path.join(stack.dataDir, 'dead-letter');
    access = await tenantAccess(stack, `replay-${randomBytes(3).toString('hex')}`);
    const registered = await admin('agents', 'create', '--customer', access.customerId, '--agent', agent);
    if (registered.code !== 0) throw new Error(`agents create: ${registered.err}`);
    const generate = createMessageGenerator({
      devices: 1,
      items: 3,
      values: 2,
      types: ['state'],
      plantId: access.plantId,
      keepAliveIntervalMs: 30_000,
    });
    const edge = toEdge(generate(new Date()), { now: () => new Date() });
    rows = (edge.data ?? []).reduce((n, item) => n + item.values.length, 0);

    const unknown = await mqtt.connectAsync(stack.mqttUrl, { clientId: stranger });
    await unknown.publishAsync(`gdm/${stranger}/messages`, JSON.stringify(edge), { qos: 1 });
    await unknown.endAsync();
    const known = await mqtt.connectAsync(stack.mqttUrl, { clientId: agent });
    await known.publishAsync(`gdm/${agent}/messages`, '{ not json', { qos: 1 });
    await known.endAsync();
    await waitUntil(async () => (await listed()).length >= 2, 30_000, 'both messages to be dead-lettered');
  });
  afterAll(async () => stack?.stop());

  it('lists both refused messages with their reasons and agents', async () => {
    const entries = await listed();
    expect(entries.map((e) => [e.reason, e.agent]).sort()).toEqual(
      [
        ['NOT_JSON', agent],
        ['UNKNOWN_AGENT', stranger],
      ].sort(),
    );
    expect(await strangerRows()).toBe(0);
  });

  it('after the agent is registered, a replay stores the fixable message and dead-letters the other again', async () => {
    const created = await admin('agents', 'create', '--customer', access.customerId, '--agent', stranger);
    expect(created.code, created.err).toBe(0);

    const replay = await admin('dead-letter', 'replay', ...(await listed()).map((e) => e.id), ...local());
    expect(replay.code, replay.err).toBe(0);
    expect(replay.out).toContain('replayed 2 of 2 entries');
    expect(replay.out).toMatch(/UNKNOWN_AGENT -> stored \(/);
    expect(replay.out).toContain('NOT_JSON -> dead-lettered again: NOT_JSON');

    expect(await strangerRows()).toBe(rows);
    expect(await lakeLines()).toHaveLength(1);
    // What is left: only the new entry of the message that cannot be fixed.
    expect((await listed()).map((e) => e.reason)).toEqual(['NOT_JSON']);
    const outcomes = (await replayedFiles()).map(({ entry }) => entry.replay.status);
    expect(outcomes.sort()).toEqual(['dead-lettered', 'stored']);
  });

  it('a second replay stores nothing twice, even of an entry replayed before (the ingest ledger answers duplicate)', async () => {
    // As if a run had stopped after storing but before marking: the stored entry is back.
    const stored = (await replayedFiles()).map(({ file }) => file).find((f) => f.includes('UNKNOWN_AGENT'));
    await cp(stored!, path.join(deadLetterDir, path.relative(path.join(deadLetterDir, 'replayed'), stored!)));

    const again = await admin('dead-letter', 'replay', ...(await listed()).map((e) => e.id), ...local());
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('replayed 2 of 2 entries');
    expect(again.out).toMatch(/UNKNOWN_AGENT -> duplicate \(/);
    expect(await strangerRows()).toBe(rows);
    expect(await lakeLines()).toHaveLength(1);
    expect((await listed()).map((e) => e.reason)).toEqual(['NOT_JSON']);
  });
});
