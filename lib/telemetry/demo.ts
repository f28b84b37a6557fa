// Demo telemetry of `npm start`: a day of plausible machine values for the demo plants, and the
// live values of a simulated gateway, as edge GDM messages. Values follow a daily cycle with noise
// so that a time chart shows a shape; alarms fire when a temperature crosses its limit and clear
// when it falls back, as a real machine's alarm would. Pure: time and randomness are injected.
import { createHash, randomUUID } from 'node:crypto';
import { toEdge, type BaseMessage, type DataItem, type EdgeMessage } from '../gdm';

export interface DemoDevice {
  readonly deviceId: string;
  readonly plantId: string;
  readonly equipmentId: string;
  /** Shifts the device's daily cycle so that the series differ. */
  readonly phase: number;
}

export const DEMO_DEVICES: readonly DemoDevice[] = [
  { deviceId: 'press-01', plantId: 'demo-plant-1', equipmentId: 'hydraulic-press-01', phase: 0 },
  { deviceId: 'press-02', plantId: 'demo-plant-1', equipmentId: 'hydraulic-press-02', phase: 0.7 },
  { deviceId: 'cnc-01', plantId: 'demo-plant-1', equipmentId: 'cnc-mill-01', phase: 1.9 },
  { deviceId: 'compressor-01', plantId: 'demo-plant-2', equipmentId: 'air-compressor-01', phase: 3.1 },
];

const SIGNALS = [
  { name: 'temperature', unit: 'degC', base: 63, daily: 9, noise: 1.5 },
  { name: 'pressure', unit: 'bar', base: 6.2, daily: 0.6, noise: 0.15 },
  { name: 'motor-current', unit: 'A', base: 12, daily: 3, noise: 0.8 },
  { name: 'spindle-speed', unit: 'rpm', base: 1480, daily: 120, noise: 25 },
] as const;

/** The temperature above which a device's over-temperature alarm is active: every device crosses it near its daily peak (63 + 9 - 1.5). */
export const TEMPERATURE_LIMIT = 70;
const DAY_MS = 86_400_000;

export interface DemoOptions {
  readonly random?: () => number;
  /** The message id of a device's message of a kind at a time (default: a random UUID). */
  readonly messageId?: (deviceId: string, kind: string, atMs: number) => string;
  readonly devices?: readonly DemoDevice[];
  /** Which devices' alarms are active, carried from one call to the next (live publishing). */
  readonly alarmActive?: Map<string, boolean>;
}

/**
 * A message id that is the same each time for the same device, kind and time (a lowercase UUID
 * made from a hash): a history published again after an interruption is recognised by the
 * ingest ledger as duplicates instead of being stored twice.
 */
export function stableMessageId(deviceId: string, kind: string, atMs: number): string {
  const hex = createHash('sha256').update(`${deviceId}\u0000${kind}\u0000${atMs}`).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A device's signal value at a time: daily cycle + noise, rounded to 3 decimals. */
export function signalValue(
  device: DemoDevice,
  signal: (typeof SIGNALS)[number],
  timeMs: number,
  random: () => number,
): number {
  const angle = (2 * Math.PI * (timeMs % DAY_MS)) / DAY_MS + device.phase;
  const value = signal.base + signal.daily * Math.sin(angle) + signal.noise * (random() * 2 - 1);
  return Math.round(value * 1000) / 1000;
}

/**
 * Makes demo messages from `start` to `end` (ms): for each device one `state` message per
 * `intervalMs` carrying `samples` values of every signal, spaced evenly over the interval, an
 * `alarm` message when the temperature crosses TEMPERATURE_LIMIT either way, and a `keep-alive`
 * per interval when `keepAlive` is set. Messages are in time order; each is stamped by the
 * gateway (agentTimestamp) one second after its last value.
 */
export function demoMessages(
  start: number,
  end: number,
  intervalMs: number,
  samples: number,
  options: DemoOptions & { keepAlive?: boolean } = {},
): EdgeMessage[] {
  const random = options.random ?? Math.random;
  const messageId = options.messageId ?? (() => randomUUID());
  const devices = options.devices ?? DEMO_DEVICES;
  const alarmActive = options.alarmActive ?? new Map<string, boolean>();
  const out: EdgeMessage[] = [];
  const edge = (base: BaseMessage, atMs: number): EdgeMessage => toEdge(base, { now: () => new Date(atMs + 1000) });
  for (let t = start; t + intervalMs <= end; t += intervalMs) {
    for (const device of devices) {
      const times = Array.from({ length: samples }, (_, i) => t + ((i + 1) * intervalMs) / samples);
      const data: DataItem[] = SIGNALS.map((signal) => ({
        name: signal.name,
        metadata: { equipmentId: device.equipmentId, unit: signal.unit },
        values: times.map((ms) => ({
          value: signalValue(device, signal, ms, random),
          deviceTimestamp: new Date(ms).toISOString(),
        })),
      }));
      const last = times[times.length - 1] ?? t;
      const common = { deviceId: device.deviceId, messageVersion: '1.0', metadata: { plantId: device.plantId } };
      out.push(
        edge({ ...common, messageId: messageId(device.deviceId, 'state', last), messageType: 'state', data }, last),
      );
      const temperature = data[0]?.values[data[0].values.length - 1]?.value;
      const hot = typeof temperature === 'number' && temperature > TEMPERATURE_LIMIT;
      if (hot !== (alarmActive.get(device.deviceId) ?? false)) {
        alarmActive.set(device.deviceId, hot);
        const alarm = {
          name: 'over-temperature',
          metadata: {
            equipmentId: device.equipmentId,
            temperature: temperature ?? null,
            text: hot
              ? `temperature ${temperature} degC, above ${TEMPERATURE_LIMIT} degC`
              : `temperature ${temperature} degC, back below ${TEMPERATURE_LIMIT} degC`,
            state: hot ? 'ACTIVE' : 'CLEARED',
            active: hot,
            acknowledged: false,
            severity: 2,
          },
          // An alarm's value is null by convention: its state travels in the metadata.
          values: [{ value: null, deviceTimestamp: new Date(last).toISOString() }],
        };
        out.push(
          edge(
            { ...common, messageId: messageId(device.deviceId, 'alarm', last), messageType: 'alarm', data: [alarm] },
            last,
          ),
        );
      }
      if (options.keepAlive) {
        const keepAlive = {
          name: 'keep-alive',
          values: [{ value: null, deviceTimestamp: new Date(last).toISOString() }],
        };
        const metadata = { plantId: device.plantId, messageIntervallInMilliseconds: intervalMs };
        out.push(
          edge(
            {
              ...common,
              metadata,
              messageId: messageId(device.deviceId, 'keep-alive', last),
              messageType: 'keep-alive',
              data: [keepAlive],
            },
            last,
          ),
        );
      }
    }
  }
  return out;
}
