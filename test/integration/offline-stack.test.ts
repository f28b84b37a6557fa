// The foundation's promise: the whole local stack starts on free ports, /health reports each
// component, an MQTT message on a rule's topic reaches its function, a failing invocation is
// dead-lettered. On the run's shared stack (started by the same startOfflineStack), with a client
// id of this file's own; that stopping leaves no process behind is checked where a stack of its
// own ends anyway (ingest-conservation.test.ts).
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfflineStack } from '../support/offline-stack';
import { waitUntil } from '../support/ports';
import { sharedOfflineStack } from '../support/shared-stack';

async function deadLetters(
  dataDir: string,
): Promise<Array<{ reason: string; payloadBase64: string; source: Record<string, string> }>> {
  const root = path.join(dataDir, 'dead-letter');
  // Entries are dead-letter/date=YYYY-MM-DD/<file>.json; on the shared stack another file's replayed
  // ones sit under dead-letter/replayed/. Entries are written under a temporary name
  // (.<name>.<id>.tmp) and renamed: skip those.
  const days = (await readdir(root).catch(() => [] as string[])).filter((d) => d.startsWith('date='));
  const files = (
    await Promise.all(
      days.map(async (d) =>
        (await readdir(path.join(root, d), { withFileTypes: true }))
          .filter((f) => f.isFile() && !f.name.startsWith('.'))
          .map((f) => path.join(root, d, f.name)),
      ),
    )
  ).flat();
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8'))));
}

describe('offline stack', () => {
  let stack: OfflineStack;
  beforeAll(async () => {
    stack = await sharedOfflineStack();
  });
  afterAll(async () => stack?.stop());

  it('reports DynamoDB, the telemetry store and the broker as up', async () => {
    const response = await fetch(`${stack.httpUrl}/health`);
    const body = (await response.json()) as { status: string; components: Record<string, { status: string }> };
    expect(response.status).toBe(200);
    expect(Object.keys(body.components).sort()).toEqual(['broker', 'dynamodb', 'telemetry']);
    expect(Object.values(body.components).every((c) => c.status === 'up')).toBe(true);
  });

  it('answers an unknown route with 404', async () => {
    const response = await fetch(`${stack.httpUrl}/no-such-route`);
    expect(response.status).toBe(404);
  });

  it('delivers a message published on the rule topic to the ingest function', async () => {
    const agentId = '0b7a2d3c-0000-4000-8000-00000000aaaa';
    const client = await mqtt.connectAsync(stack.mqttUrl, { clientId: agentId });
    await client.publishAsync(`gdm/${agentId}/messages`, 'this is not json', { qos: 1 });
    await client.endAsync();
    // Like IoT Core, the broker acknowledged on receipt; the function's outcome follows shortly.
    let mine: Awaited<ReturnType<typeof deadLetters>> = [];
    await waitUntil(
      async () => (mine = (await deadLetters(stack.dataDir)).filter((e) => e.source.clientId === agentId)).length > 0,
      10_000,
      'the dead letter',
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]?.reason).toBe('NOT_JSON');
    expect(Buffer.from(mine[0]?.payloadBase64 ?? '', 'base64').toString()).toBe('this is not json');
  });

  it('ignores topics that no rule selects', async () => {
    const clientId = `other-client-${randomBytes(3).toString('hex')}`;
    const client = await mqtt.connectAsync(stack.mqttUrl, { clientId });
    await client.publishAsync('something/else', 'x', { qos: 1 });
    await client.endAsync();
    await new Promise((r) => setTimeout(r, 500));
    const entries = await deadLetters(stack.dataDir);
    expect(entries.some((e) => e.source.clientId === clientId)).toBe(false);
  });
});
