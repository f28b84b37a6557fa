import { describe, expect, it } from 'vitest';
import { MESSAGE_KINDS, kindOf, toEdge, validateMessage } from '../../../lib/gdm';
import { createMessageGenerator, deviceIdFor } from '../../../lib/gdm/simulator';

describe('createMessageGenerator', () => {
  it('makes valid edge messages that follow the conventions, for every kind', () => {
    // Prepare
    const generate = createMessageGenerator({
      devices: 3,
      items: 4,
      values: 3,
      types: MESSAGE_KINDS,
      plantId: 'plant-9',
      keepAliveIntervalMs: 12_000,
    });
    const now = new Date('2024-05-01T10:00:00.000Z');
    // Act
    const messages = Array.from({ length: 24 }, () => toEdge(generate(now), { now: () => now }));
    // Assess
    for (const message of messages) {
      const result = validateMessage(message, 'edge');
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      expect(message.metadata?.plantId).toBe('plant-9');
    }
    expect(new Set(messages.map((m) => kindOf(m.messageType)))).toEqual(new Set(MESSAGE_KINDS));
  });

  it('serves devices round-robin and gives each device every type in turn', () => {
    // Prepare
    const generate = createMessageGenerator({
      devices: 2,
      items: 1,
      values: 1,
      types: ['state', 'keep-alive'],
      keepAliveIntervalMs: 1000,
    });
    const now = new Date('2024-05-01T10:00:00.000Z');
    // Act
    const sequence = Array.from({ length: 4 }, () => generate(now)).map((m) => `${m.deviceId}:${m.messageType}`);
    // Assess
    expect(sequence).toEqual([
      `${deviceIdFor(0)}:state`,
      `${deviceIdFor(1)}:state`,
      `${deviceIdFor(0)}:keep-alive`,
      `${deviceIdFor(1)}:keep-alive`,
    ]);
  });

  it('uses the requested sizes and fresh message ids', () => {
    // Prepare
    const generate = createMessageGenerator({
      devices: 1,
      items: 7,
      values: 5,
      types: ['state'],
      keepAliveIntervalMs: 1000,
    });
    const now = new Date('2024-05-01T10:00:00.000Z');
    // Act
    const [a, b] = [generate(now), generate(now)];
    // Assess
    expect(a.data).toHaveLength(7);
    expect(a.data?.every((d) => d.values.length === 5)).toBe(true);
    expect(new Set(a.data?.map((d) => d.name)).size).toBe(7);
    expect(a.messageId).not.toBe(b.messageId);
    expect(a.data?.[0]?.values.at(-1)?.deviceTimestamp).toBe('2024-05-01T10:00:00.000Z');
  });
});
