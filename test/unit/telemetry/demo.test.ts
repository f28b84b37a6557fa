import { describe, expect, it } from 'vitest';
import { checkConventions, validateMessage } from '../../../lib/gdm';
import { DEMO_DEVICES, demoMessages, stableMessageId, TEMPERATURE_LIMIT } from '../../../lib/telemetry/demo';

const HOUR = 3_600_000;
const start = Date.UTC(2026, 10, 24, 10, 0, 0);
let counter = 0;
const ids = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

describe('demo telemetry', () => {
  it('makes one state message per device and interval, valid edge messages that follow the conventions', () => {
    const messages = demoMessages(start, start + 24 * HOUR, 5 * 60_000, 5, {
      random: () => 0.5,
      messageId: ids,
      keepAlive: true,
    });
    const states = messages.filter((m) => m.messageType === 'state');
    expect(states).toHaveLength(288 * DEMO_DEVICES.length);
    expect(messages.filter((m) => m.messageType === 'keep-alive')).toHaveLength(288 * DEMO_DEVICES.length);
    for (const message of messages) {
      const result = validateMessage(JSON.parse(JSON.stringify(message)), 'edge');
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(checkConventions(message)).toEqual([]);
    }
  });

  it('spaces the values evenly over the interval, all inside it, and stamps the message after its last value', () => {
    const [first] = demoMessages(start, start + 60_000, 60_000, 6, { random: () => 0.5, messageId: ids });
    const times = first?.data?.[0]?.values.map((v) => Date.parse(v.deviceTimestamp ?? '')) ?? [];
    expect(times).toEqual([10, 20, 30, 40, 50, 60].map((s) => start + s * 1000));
    expect(first?.agentTimestamp).toBe(new Date(start + 61_000).toISOString());
    expect(first?.deviceId).toBe('press-01');
    expect(first?.metadata).toEqual({ plantId: 'demo-plant-1' });
  });

  it('raises an alarm when the temperature crosses the limit and clears it when it falls back, once each', () => {
    const device = { deviceId: 'hot-01', plantId: 'demo-plant-1', equipmentId: 'eq', phase: 0 };
    // The daily peak (63 + 9, noise at its top) is above the limit, the trough below.
    const messages = demoMessages(start, start + 24 * HOUR, 10 * 60_000, 1, {
      random: () => 1,
      messageId: ids,
      devices: [device],
    });
    const alarms = messages.filter((m) => m.messageType === 'alarm');
    expect(alarms.map((a) => a.data?.[0]?.metadata?.state)).toEqual(['ACTIVE', 'CLEARED']);
    const [raised, cleared] = alarms.map((a) => a.data?.[0]?.metadata?.temperature as number);
    expect(raised).toBeGreaterThan(TEMPERATURE_LIMIT);
    expect(cleared).toBeLessThanOrEqual(TEMPERATURE_LIMIT);
  });

  it('carries the alarm state from one call to the next, so a live gateway does not raise it again every tick', () => {
    const device = {
      deviceId: 'hot-01',
      plantId: 'demo-plant-1',
      equipmentId: 'eq',
      phase: Math.PI / 2 - (2 * Math.PI * 10) / 24,
    };
    const alarmActive = new Map<string, boolean>();
    const options = { random: () => 1, messageId: ids, devices: [device], alarmActive };
    const first = demoMessages(start, start + 10_000, 10_000, 10, options);
    const second = demoMessages(start + 10_000, start + 20_000, 10_000, 10, options);
    expect(first.filter((m) => m.messageType === 'alarm')).toHaveLength(1);
    expect(second.filter((m) => m.messageType === 'alarm')).toHaveLength(0);
  });
  it('gives a history published again the same message ids, whatever the values (the ledger then finds duplicates)', () => {
    const once = demoMessages(start, start + HOUR, 5 * 60_000, 5, { random: () => 0.1, messageId: stableMessageId });
    const again = demoMessages(start, start + HOUR, 5 * 60_000, 5, { random: () => 0.9, messageId: stableMessageId });
    const states = (messages: typeof once) => messages.filter((m) => m.messageType === 'state').map((m) => m.messageId);
    expect(states(again)).toEqual(states(once));
    expect(new Set(states(once)).size).toBe(12 * DEMO_DEVICES.length);
    for (const id of states(once))
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableMessageId('press-01', 'state', start)).not.toBe(stableMessageId('press-01', 'alarm', start));
  });
});
