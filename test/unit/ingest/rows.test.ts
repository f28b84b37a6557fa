import { describe, expect, it } from 'vitest';
import { toCloud, toEdge } from '../../../lib/gdm';
import { rowsOf, plantIdOf } from '../../../lib/ingest/rows';
import { toUtcIso } from '../../../lib/telemetry/time';

const AGENT = '0f6f7a2e-1c3d-4b5a-8e9f-0a1b2c3d4e5f';

function cloud(messageType: string, data: unknown[], metadata?: Record<string, unknown>) {
  const edge = toEdge(
    {
      messageId: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
      messageType,
      messageVersion: '1.0',
      ...(metadata ? { metadata } : {}),
      data,
    } as never,
    { now: () => new Date('2026-01-01T00:00:01Z'), deviceId: 'Dev-1' },
  );
  return toCloud(edge, { now: () => new Date('2026-01-01T00:00:02Z'), agentId: AGENT, ingestionId: 'hub' });
}

describe('toUtcIso', () => {
  it('moves an offset to UTC and keeps six fractional digits', () => {
    expect(toUtcIso('2026-01-01T01:30:00.123456+01:30')).toBe('2026-01-01T00:00:00.123456Z');
    expect(toUtcIso('2025-12-31T23:00:00-02:00')).toBe('2026-01-01T01:00:00.000000Z');
    expect(toUtcIso('2026-01-01T00:00:00.5Z')).toBe('2026-01-01T00:00:00.500000Z');
  });
  it('refuses text that is not a date-time with offset', () => {
    expect(() => toUtcIso('2026-01-01 00:00:00')).toThrow(RangeError);
  });
});

describe('rowsOf', () => {
  it('gives one States row per value with the value timestamp, else the agent timestamp', () => {
    const rows = rowsOf(
      cloud(
        'state',
        [
          {
            name: 't',
            metadata: { unit: 'degC' },
            values: [
              { value: 1, deviceTimestamp: '2026-01-01T00:00:00.000001Z' },
              { value: 'x', deviceTimestamp: null },
            ],
          },
        ],
        { plantId: 'p1' },
      ),
    );
    expect(rows.events).toEqual([]);
    expect(rows.states.map((r) => [r.Timestamp, r.Value, r.Unit, r.EquipmentId, r.PlantId])).toEqual([
      ['2026-01-01T00:00:00.000001Z', 1, 'degC', '', 'p1'],
      ['2026-01-01T00:00:01.000000Z', 'x', 'degC', '', 'p1'],
    ]);
    expect(rows.states[0]?.Uid).toBe(`${AGENT}_dev-1`);
  });

  it('gives Events rows for alarm and event messages with their metadata columns', () => {
    const rows = rowsOf(
      cloud('event:shift', [
        {
          name: 'e',
          metadata: { text: 'Shift start', reason: 7, severity: { level: 2 }, active: 'yes' },
          values: [{ value: null }],
        },
      ]),
    );
    expect(rows.states).toEqual([]);
    expect(rows.events[0]).toMatchObject({
      Text: 'Shift start',
      Reason: '7',
      Severity: { level: 2 },
      Active: null,
      Acknowledged: null,
      PlantId: '',
    });
  });

  it('gives no rows for keep-alives', () => {
    expect(
      rowsOf(
        cloud('keep-alive', [
          { name: 'keep-alive', values: [{ value: null, deviceTimestamp: '2026-01-01T00:00:00Z' }] },
        ]),
      ),
    ).toEqual({ states: [], events: [] });
  });

  it('reads the plant from message metadata only when it is a string', () => {
    expect(plantIdOf({ metadata: { plantId: 'p' } })).toBe('p');
    expect(plantIdOf({ metadata: { plantId: 7 } })).toBe('');
    expect(plantIdOf({})).toBe('');
  });
});
