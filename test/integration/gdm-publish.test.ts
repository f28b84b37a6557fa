// `gdm publish` end to end: the real command against an in-process aedes MQTT broker on a free port.
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateMessage } from '../../lib/gdm';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const AGENT_ID = '0d6f3a2b-8c1e-4f5a-9b7c-2e4d6f8a0b1c';

interface Received {
  readonly clientId: string | undefined;
  readonly topic: string;
  readonly qos: number;
  readonly payload: string;
}

function gdm(args: readonly string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'lib/cli/gdm.mjs'), ...args],
      { cwd: REPO_ROOT },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(stdin);
  });
}

describe('gdm publish against an MQTT broker', () => {
  let broker: Aedes;
  let server: net.Server;
  let port: number;
  const received: Received[] = [];
  const connectedIds: string[] = [];

  beforeAll(async () => {
    broker = await Aedes.createBroker();
    broker.on('client', (client) => connectedIds.push(client.id));
    broker.on('publish', (packet, client) => {
      // Messages from clients only: the broker publishes its own $SYS topics with client null.
      if (client)
        received.push({
          clientId: client.id,
          topic: packet.topic,
          qos: packet.qos,
          payload: packet.payload.toString(),
        });
    });
    server = net.createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => broker.close(() => resolve()));
  });

  it('publishes exactly --count valid edge messages with QoS 1 on gdm/<agentId>/messages as client agentId', async () => {
    // Act
    const run = await gdm([
      'publish',
      '--agent-id',
      AGENT_ID,
      '--generate',
      '--devices',
      '3',
      '--items',
      '4',
      '--values',
      '2',
      '--types',
      'state,alarm,event,keep-alive',
      '--plant-id',
      'plant-7',
      '--rate',
      '200',
      '--count',
      '20',
      '--broker',
      `mqtt://127.0.0.1:${port}`,
    ]);
    // Assess
    expect(run.stderr).not.toContain('MQTT error');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('published 20, acknowledged 20, failed 0');
    expect(connectedIds).toEqual([AGENT_ID]);
    expect(received).toHaveLength(20);
    const ids = new Set<string>();
    for (const message of received) {
      expect([message.clientId, message.topic, message.qos]).toEqual([AGENT_ID, `gdm/${AGENT_ID}/messages`, 1]);
      const result = validateMessage(JSON.parse(message.payload), 'edge');
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      expect(result.message?.metadata?.plantId).toBe('plant-7');
      ids.add(result.message?.messageId ?? '');
    }
    expect(ids.size).toBe(20);
  });

  it('publishes base messages from stdin, repeating them with fresh messageIds up to --count', async () => {
    // Prepare
    received.length = 0;
    const base = {
      messageId: '3f2b9c1e-1a2b-4c3d-8e9f-0123456789ab',
      data: [{ name: 'temperature', values: [{ value: 21.5 }] }],
    };
    const ndjson = `${JSON.stringify(base)}\n${JSON.stringify({ ...base, deviceId: 'own-device', messageId: '3f2b9c1e-1a2b-4c3d-8e9f-0123456789ac' })}\n`;
    // Act
    const run = await gdm(
      [
        'publish',
        '--agent-id',
        AGENT_ID,
        '--device-id',
        'gw-device',
        '--rate',
        '100',
        '--count',
        '5',
        '--broker',
        `mqtt://127.0.0.1:${port}`,
        '-',
      ],
      ndjson,
    );
    // Assess
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('published 5, acknowledged 5, failed 0');
    const messages = received.map((r) => JSON.parse(r.payload) as { deviceId: string; messageId: string });
    expect(messages.map((m) => m.deviceId)).toEqual([
      'gw-device',
      'own-device',
      'gw-device',
      'own-device',
      'gw-device',
    ]);
    expect(new Set(messages.map((m) => m.messageId)).size).toBe(5);
    expect(messages.slice(0, 2).map((m) => m.messageId)).toEqual([
      base.messageId,
      '3f2b9c1e-1a2b-4c3d-8e9f-0123456789ac',
    ]);
  });

  it('fails with exit 1 when no broker answers', async () => {
    // Prepare: a port nothing listens on
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    // Act
    const run = await gdm([
      'publish',
      '--agent-id',
      AGENT_ID,
      '--generate',
      '--count',
      '1',
      '--broker',
      `mqtt://127.0.0.1:${closedPort}`,
      '--connect-timeout',
      '1s',
    ]);
    // Assess
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cannot connect');
  });
});
