// Generates plausible base messages for the gateway simulator (gdm publish --generate), tests and
// benchmarks. Every message it makes is a valid base message that follows the conventions, and a
// valid edge message after toEdge. Randomness and ids are injectable so tests can be exact.
import { randomUUID } from 'node:crypto';
import type { MessageKind } from './rules';
import type { BaseMessage, DataItem, ValueItem } from './types';

export interface GeneratorOptions {
  /** Number of simulated devices (`device-001` ...), served round-robin. */
  readonly devices: number;
  /** Data items per state, event and alarm message (keep-alive always has one). */
  readonly items: number;
  /** Value items per data item (keep-alive always has one). */
  readonly values: number;
  /** Message kinds, cycled per device. */
  readonly types: readonly MessageKind[];
  /** Put into message metadata as `plantId` when given. */
  readonly plantId?: string;
  /** Announced by keep-alive messages in metadata.messageIntervallInMilliseconds. */
  readonly keepAliveIntervalMs: number;
  readonly random?: () => number;
  readonly newMessageId?: () => string;
}

const SIGNALS = [
  { name: 'temperature', unit: 'degC', base: 60, spread: 15 },
  { name: 'pressure', unit: 'bar', base: 6, spread: 1.5 },
  { name: 'spindle-speed', unit: 'rpm', base: 1500, spread: 300 },
  { name: 'motor-current', unit: 'A', base: 12, spread: 4 },
  { name: 'vibration', unit: 'mm/s', base: 2, spread: 1 },
] as const;

/** Spacing of the value items of one data item, ending at the message time. */
const SAMPLE_SPACING_MS = 100;

export function deviceIdFor(index: number): string {
  return `device-${String(index + 1).padStart(3, '0')}`;
}

/** Returns a function that makes the next message: message n goes to device n mod devices. */
export function createMessageGenerator(options: GeneratorOptions): (now: Date) => BaseMessage {
  const random = options.random ?? Math.random;
  const newMessageId = options.newMessageId ?? randomUUID;
  const metadata = options.plantId === undefined ? {} : { plantId: options.plantId };
  let sequence = 0;

  const timestamps = (now: Date, count: number): string[] =>
    Array.from({ length: count }, (_, j) =>
      new Date(now.getTime() - (count - 1 - j) * SAMPLE_SPACING_MS).toISOString(),
    );

  const stateItems = (device: string, now: Date): DataItem[] =>
    Array.from({ length: options.items }, (_, i) => {
      const signal = SIGNALS[i % SIGNALS.length] ?? SIGNALS[0];
      const name = i < SIGNALS.length ? signal.name : `${signal.name}-${Math.floor(i / SIGNALS.length) + 1}`;
      const values: ValueItem[] = timestamps(now, options.values).map((deviceTimestamp) => ({
        value: Math.round((signal.base + (random() * 2 - 1) * signal.spread) * 1000) / 1000,
        deviceTimestamp,
      }));
      return { name, metadata: { equipmentId: `${device}-eq`, unit: signal.unit }, values };
    });

  const eventItems = (device: string, now: Date, alarm: boolean): DataItem[] =>
    Array.from({ length: options.items }, (_, i) => {
      const active = random() < 0.5;
      const severity = 1 + Math.floor(random() * 3);
      const values: ValueItem[] = timestamps(now, options.values).map((deviceTimestamp) => ({
        value: alarm || random() < 0.5 ? null : Math.floor(random() * 100),
        deviceTimestamp,
      }));
      const metadata = alarm
        ? {
            equipmentId: `${device}-eq`,
            text: `simulated alarm ${i + 1}`,
            active,
            acknowledged: !active && random() < 0.5,
            state: active ? 'ACTIVE' : 'CLEARED',
            severity,
          }
        : { equipmentId: `${device}-eq`, text: `simulated event ${i + 1}`, state: 'INFO', severity };
      return { name: `${alarm ? 'alarm' : 'event'}-${i + 1}`, metadata, values };
    });

  return (now: Date): BaseMessage => {
    const n = sequence++;
    const deviceId = deviceIdFor(n % options.devices);
    const kind = options.types[Math.floor(n / options.devices) % options.types.length] ?? 'state';
    const common = { deviceId, messageId: newMessageId(), messageType: kind, messageVersion: '1.0' };
    switch (kind) {
      case 'keep-alive':
        return {
          ...common,
          metadata: { ...metadata, messageIntervallInMilliseconds: options.keepAliveIntervalMs },
          data: [{ name: 'keep-alive', values: [{ value: null, deviceTimestamp: now.toISOString() }] }],
        };
      case 'alarm':
      case 'event':
        return { ...common, metadata, data: eventItems(deviceId, now, kind === 'alarm') };
      case 'state':
        return { ...common, metadata, data: stateItems(deviceId, now) };
    }
  };
}
