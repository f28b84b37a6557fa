// The local IoT Core stand-in: rules invoke the function through the Lambda invoke API, many
// messages at once, a failing invocation is retried, then dead-lettered with the original payload
// (the IoT rule error action), never dropped; closing lets messages in flight finish.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileRules, startBroker, type RunningBroker } from '../../infra/local/iot/broker';
import { freePort } from '../support/ports';

const SQL = "SELECT encode(*, 'base64') AS payload, topic(2) AS agentId, clientid() AS clientId, timestamp() AS receivedAt FROM 'gdm/+/messages' WHERE topic(3) = 'messages'";

describe('local IoT broker', () => {
  let lambda: Server;
  let lambdaPort: number;
  let mode: 'ok' | 'fail' | 'slow' | 'drop' = 'ok';
  let drops = 0;
  const calls: Array<{ name: string; event: Record<string, unknown> }> = [];
  let dir: string;
  let broker: RunningBroker | undefined;
  let mqttPort: number;

  beforeAll(async () => {
    lambdaPort = await freePort();
    lambda = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        calls.push({ name: decodeURIComponent(req.url?.split('/')[3] ?? ''), event: JSON.parse(body) });
        if (mode === 'drop' && drops > 0) {
          drops--;
          req.socket.destroy();
          return;
        }
        if (mode === 'fail') res.writeHead(200, { 'X-Amz-Function-Error': 'Unhandled' }).end('{"errorMessage":"boom"}');
        else if (mode === 'slow') setTimeout(() => res.writeHead(200).end('null'), 300);
        else res.writeHead(200).end('null');
      });
    });
    await new Promise<void>((r) => lambda.listen(lambdaPort, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => lambda.close(r));
  });
  afterEach(async () => {
    await broker?.close();
    broker = undefined;
    calls.length = 0;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function start(maxInFlight?: number): Promise<void> {
    dir = await mkdtemp(path.join(tmpdir(), 'iot-'));
    mqttPort = await freePort();
    broker = await startBroker({ host: '127.0.0.1', port: mqttPort, lambdaPort, deadLetterDir: dir, rules: [{ functionKey: 'ingest', functionName: 'svc-local-ingest', sql: SQL }], log: () => undefined, ...(maxInFlight ? { maxInFlight } : {}) });
  }

  it('invokes the function with the rule output', async () => {
    await start();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { clientId: 'agent-7' });
    await client.publishAsync('gdm/agent-7/messages', '{"messageId":"m1"}', { qos: 1 });
    await broker?.idle();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.name).toBe('svc-local-ingest');
    expect(calls[0]?.event).toMatchObject({ agentId: 'agent-7', clientId: 'agent-7', payload: Buffer.from('{"messageId":"m1"}').toString('base64') });
    await client.publishAsync('gdm/agent-7/other', 'x', { qos: 1 });
    await broker?.idle();
    expect(calls).toHaveLength(1);
    await client.endAsync();
  });

  it('retries a failing invocation three times, then writes the message to the dead letter', async () => {
    mode = 'fail';
    await start();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { clientId: 'agent-8' });
    await client.publishAsync('gdm/agent-8/messages', 'payload-1', { qos: 1 });
    await client.endAsync();
    await broker?.idle();
    mode = 'ok';
    expect(calls).toHaveLength(3);
    const days = await readdir(dir);
    const files = await readdir(path.join(dir, days[0] as string));
    expect(files).toHaveLength(1);
    const entry = JSON.parse(await readFile(path.join(dir, days[0] as string, files[0] as string), 'utf8'));
    expect(entry.reason).toBe('RULE_ACTION_FAILED');
    expect(Buffer.from(entry.payloadBase64, 'base64').toString()).toBe('payload-1');
    expect(entry.source).toMatchObject({ topic: 'gdm/agent-8/messages', clientId: 'agent-8' });
  });

  it('retries a connection the local Lambda endpoint drops, without spending the rule\'s attempts', async () => {
    mode = 'drop';
    drops = 4;
    await start();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { clientId: 'agent-10' });
    await client.publishAsync('gdm/agent-10/messages', 'survives', { qos: 1 });
    await client.endAsync();
    await broker?.idle();
    mode = 'ok';
    expect(calls.filter((c) => Buffer.from(String(c.event.payload), 'base64').toString() === 'survives')).toHaveLength(5);
    expect(await readdir(dir)).toEqual([]);
  });

  it('processes messages concurrently, holds acknowledgements at the in-flight limit, and drains on close', async () => {
    mode = 'slow';
    await start(2);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { clientId: 'agent-9' });
    const started = Date.now();
    // Two fit in flight and are acknowledged at once; the third waits for one of them (300 ms).
    await client.publishAsync('gdm/agent-9/messages', 'a', { qos: 1 });
    await client.publishAsync('gdm/agent-9/messages', 'b', { qos: 1 });
    const fast = Date.now() - started;
    await client.publishAsync('gdm/agent-9/messages', 'c', { qos: 1 });
    const held = Date.now() - started;
    expect(fast).toBeLessThan(250);
    expect(held).toBeGreaterThanOrEqual(250);
    await client.endAsync();
    await broker?.close();
    broker = undefined;
    mode = 'ok';
    expect(calls.map((c) => Buffer.from(String(c.event.payload), 'base64').toString()).sort()).toEqual(['a', 'b', 'c']);
  });

  it('refuses at start a rule it cannot honour, naming the function', () => {
    expect(() => compileRules([{ functionKey: 'ingest', functionName: 'x', sql: "SELECT * FROM 'a' WHERE get(x, 1) = 2" }])).toThrow(/function 'ingest'.*get\(\) is not supported/);
  });
});
