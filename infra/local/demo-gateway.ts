// The simulated gateway of `npm start` (a child process of infra/local/start.mjs). On the first
// start of a data folder it publishes a day of demo values through the broker, as a gateway
// catching up would. `<data>/demo-telemetry.json` records the day's window before the first message
// goes out and marks it done once all are acknowledged: a start interrupted in between publishes the
// same window again with the same message ids, which the ingest ledger finds stored. Then, unless
// INSIGHTS_DEMO_GATEWAY=off, it publishes live values every 10 s until it is stopped, so that a
// query over the last hour always has rows. Everything goes through MQTT and the ingest function:
// the demo data is stored exactly as a real gateway's would be.
// Tells its parent over IPC: {ready: {backfilled, live}} once the history is acknowledged, or
// {failed: message}. Exits when the parent goes away (IPC disconnect), on SIGINT and on SIGTERM.
import { readFile, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import mqtt from 'mqtt';
import { DEMO } from '../../lib/registry/seed';
import { demoMessages, stableMessageId } from '../../lib/telemetry/demo';
import type { EdgeMessage } from '../../lib/gdm';

const env = process.env;
const dataDir = path.resolve(env.INSIGHTS_DATA_DIR ?? '.data');
const mqttUrl = `mqtt://127.0.0.1:${env.INSIGHTS_MQTT_PORT ?? '1883'}`;
const live = (env.INSIGHTS_DEMO_GATEWAY ?? 'on').toLowerCase() !== 'off';
const markerFile = path.join(dataDir, 'demo-telemetry.json');
const agentId = DEMO.simulatorAgentId;
const topic = `gdm/${agentId}/messages`;
const HISTORY_MS = 24 * 3_600_000;
const HISTORY_INTERVAL_MS = 5 * 60_000;
const LIVE_INTERVAL_MS = 10_000;

const tell = (message: unknown): void => {
  if (process.send) process.send(message);
};

interface History {
  readonly state: 'publishing' | 'done';
  readonly from: number;
  readonly to: number;
  readonly messages?: number;
}

async function readHistory(): Promise<History | undefined> {
  try {
    const marker = JSON.parse(await readFile(markerFile, 'utf8')) as Partial<History>;
    return typeof marker.from === 'number' &&
      typeof marker.to === 'number' &&
      (marker.state === 'publishing' || marker.state === 'done')
      ? (marker as History)
      : undefined;
  } catch {
    return undefined;
  }
}

async function writeHistory(history: History): Promise<void> {
  const temporary = `${markerFile}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ ...history, at: new Date().toISOString() })}\n`);
  await rename(temporary, markerFile);
}

const client = await mqtt.connectAsync(mqttUrl, { clientId: agentId, reconnectPeriod: 1000, connectTimeout: 10_000 });
client.on('error', (error) => process.stderr.write(`demo gateway: ${error.message}\n`));
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  client.end(false, {}, () => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.on('disconnect', stop);

const publish = (messages: readonly EdgeMessage[]): Promise<unknown> =>
  Promise.all(messages.map((m) => client.publishAsync(topic, JSON.stringify(m), { qos: 1 })));

try {
  let history = 0;
  const recorded = await readHistory();
  if (recorded?.state !== 'done') {
    const now = Date.now();
    const end = now - (now % HISTORY_INTERVAL_MS);
    const window = recorded ?? { state: 'publishing' as const, from: end - HISTORY_MS, to: end };
    if (!recorded) await writeHistory(window);
    const messages = demoMessages(window.from, window.to, HISTORY_INTERVAL_MS, 5, { messageId: stableMessageId });
    await publish(messages);
    history = messages.length;
    await writeHistory({ state: 'done', from: window.from, to: window.to, messages: history });
  }
  tell({ ready: { backfilled: history, live } });
  if (!live) stop();
  else {
    const alarmActive = new Map<string, boolean>();
    let from = Date.now();
    setInterval(() => {
      const to = Date.now();
      const messages = demoMessages(from, to, to - from, 10, { alarmActive, keepAlive: true });
      from = to;
      publish(messages).catch((error: unknown) =>
        process.stderr.write(`demo gateway: a publish failed: ${String(error)}\n`),
      );
    }, LIVE_INTERVAL_MS);
  }
} catch (error) {
  tell({ failed: error instanceof Error ? error.message : String(error) });
  stop();
}
