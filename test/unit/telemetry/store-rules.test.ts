// The deployed store's acceptance rules at each boundary: time ahead, age (memory and magnetic
// store), and record size counted as Timestream meters it, for the record the writer really sends.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { recordsOf } from '../../../lib/adapters/timestream/telemetry-store';
import { timestreamRecordBytes, toTimestreamRecord } from '../../../lib/telemetry/timestream-layout';
import { toCloud, toEdge, validateMessage } from '../../../lib/gdm';
import { createMessageGenerator } from '../../../lib/gdm/simulator';
import { rowsOf } from '../../../lib/ingest/rows';
import {
  recordBytes,
  recordSizes,
  refusalOf,
  storeRuleViolations,
  storeRulesOf,
  TIMESTREAM_MAX_RECORD_BYTES,
  type SizedRecord,
} from '../../../lib/telemetry/store-rules';
import type { EventRow, TelemetryRow } from '../../../lib/telemetry/tables';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const deployed = storeRulesOf({ memoryRetentionHours: 24, magneticRetentionDays: 3650, magneticWrites: true });

function row(over: Partial<TelemetryRow> = {}): TelemetryRow {
  return {
    Timestamp: '2026-06-01T11:59:00.000000Z',
    PlantId: 'p1',
    Uid: 'a1_d1',
    DeviceId: 'd1',
    AgentId: '5f0c6c1e-3b7a-4d2e-9a41-0d2f6a8b9c01',
    AgentTimestamp: '2026-06-01T11:59:00.000000Z',
    IngestionId: 'hub',
    IngestionTimestamp: '2026-06-01T11:59:01.000000Z',
    MessageId: '0b8a1f4e-6a52-4a0d-9d7e-3c2b1a0f9e8d',
    MessageType: 'state',
    MessageVersion: '1.0',
    MessageMetadata: null,
    NameId: 'n1',
    Name: 'temperature',
    Value: 21.5,
    Metadata: null,
    EquipmentId: '',
    Unit: '',
    ...over,
  };
}

const at = (ms: number, extraMicros = 0): string => {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 23)}${String(extraMicros).padStart(3, '0')}Z`;
};
const check = (rows: TelemetryRow[], rules = deployed) =>
  storeRuleViolations({ customerId: 'demo', states: rows, events: [] }, NOW, rules).map((v) => v.code);

describe('record size', () => {
  it("matches the metering guide's worked example (83 bytes)", () => {
    const example: SizedRecord = {
      Dimensions: [
        { Name: 'region', Value: 'us-east-1' },
        { Name: 'az', Value: '1d' },
        { Name: 'vpc', Value: 'vpc-1a2b3c4d' },
        { Name: 'hostname', Value: 'host-24Gju' },
      ],
      MeasureName: 'cpu_utilization',
      MeasureValue: '35.0',
      MeasureValueType: 'DOUBLE',
    };
    expect(recordBytes(example)).toBe(83);
  });

  it('counts UTF-8 bytes of strings and fixed sizes of typed measures', () => {
    const base: SizedRecord = { MeasureName: 'gdm', MeasureValues: [] };
    expect(recordBytes(base)).toBe(8 + 3);
    expect(recordBytes({ ...base, Dimensions: [{ Name: 'Unit', Value: '°C' }] })).toBe(11 + 4 + 3);
    expect(recordBytes({ ...base, MeasureValues: [{ Name: 'Value', Value: '"é"', Type: 'VARCHAR' }] })).toBe(
      11 + 5 + 4,
    );
    expect(
      recordBytes({
        ...base,
        MeasureValues: [
          { Name: 'ValueBool', Value: 'true', Type: 'BOOLEAN' },
          { Name: 'ValueDouble', Value: '1.25', Type: 'DOUBLE' },
          { Name: 'AgentTimestamp', Value: '1780000000000000', Type: 'TIMESTAMP' },
        ],
      }),
    ).toBe(11 + 9 + 1 + 11 + 8 + 14 + 8);
  });

  it('sizes exactly the records the Timestream writer builds (same ValueIndex numbering)', () => {
    const rows = [
      row(),
      row({ Value: 'x' }),
      row({ NameId: 'n2', Value: true }),
      ...Array.from({ length: 11 }, () => row({ NameId: 'n3', Value: 7 })),
    ];
    const written = recordsOf('States', 'demo', rows).map((r) => recordBytes(r.record as SizedRecord));
    expect(recordSizes('States', 'demo', rows)).toEqual(written);
    // ValueIndex 10 is one byte longer than ValueIndex 9.
    expect(written.at(-1)! - written.at(-2)!).toBe(1);
  });

  it('computes, without building it, the same size as the built record, for any row of either table', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const json = fc.jsonValue({ maxDepth: 2 });
    const value = fc.oneof(
      fc.constant(null),
      fc.constant(''),
      text,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.integer(), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(
        text,
        text,
        text,
        json,
        json,
        value,
        fc.boolean(),
        fc.nat(120),
        text,
        fc.option(fc.boolean(), { nil: null }),
        (name, unit, equipment, messageMetadata, metadata, v, isEvent, index, state, active) => {
          const base = row({
            Name: name,
            Unit: unit,
            EquipmentId: equipment,
            MessageMetadata: messageMetadata as never,
            Metadata: metadata as never,
            Value: v as never,
          });
          const event: EventRow = {
            ...base,
            Text: name,
            State: state,
            Reason: '',
            Severity: metadata as never,
            Active: active,
            Acknowledged: null,
          };
          const table = isEvent ? 'Events' : 'States';
          const r = isEvent ? event : base;
          expect(timestreamRecordBytes(table, 'cust-ü', index, r)).toBe(
            recordBytes(toTimestreamRecord(table, 'cust-ü', index, r) as SizedRecord),
          );
        },
      ),
      { seed: 20261123, numRuns: 300 },
    );
  });
});

describe('room left for metadata', () => {
  it("a demo state row's record is 550-600 bytes (docs/telemetry-mapping.md quotes about 570)", () => {
    const generate = createMessageGenerator({
      devices: 10,
      items: 10,
      values: 1,
      types: ['state'],
      plantId: 'demo-plant-1',
      keepAliveIntervalMs: 30_000,
    });
    const validation = validateMessage(JSON.parse(JSON.stringify(toEdge(generate(NOW), { now: () => NOW }))), 'edge');
    if (!validation.ok) throw new Error('the generator made an invalid message');
    const cloud = toCloud(validation.message, {
      now: () => NOW,
      agentId: '5f0c6c1e-3b7a-4d2e-9a41-0d2f6a8b9c01',
      ingestionId: 'industrial-insights-dev-iot',
    });
    const sizes = recordSizes('States', 'demo', rowsOf(cloud).states);
    expect(sizes).toHaveLength(10);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(550);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(600);
  });
});

describe('storeRuleViolations', () => {
  it('accepts a row exactly 15 minutes ahead and refuses one 1 ms (or 1 µs) more', () => {
    const limit = NOW.getTime() + 15 * 60_000;
    expect(check([row({ Timestamp: at(limit) })])).toEqual([]);
    expect(check([row({ Timestamp: at(limit + 1) })])).toEqual(['TIME_IN_FUTURE']);
    expect(check([row({ Timestamp: at(limit, 1) })])).toEqual(['TIME_IN_FUTURE']);
  });

  it('with magnetic-store writes: accepts rows exactly 3650 days old and refuses 1 ms older', () => {
    const oldest = NOW.getTime() - 3650 * 86_400_000;
    expect(check([row({ Timestamp: at(oldest) })])).toEqual([]);
    expect(check([row({ Timestamp: at(oldest - 1) })])).toEqual(['TIME_TOO_OLD']);
  });

  it('without magnetic-store writes: the memory store retention (24 h) is the limit', () => {
    const memoryOnly = storeRulesOf({ memoryRetentionHours: 24, magneticRetentionDays: 3650, magneticWrites: false });
    const oldest = NOW.getTime() - 24 * 3_600_000;
    expect(check([row({ Timestamp: at(oldest) })], memoryOnly)).toEqual([]);
    expect(check([row({ Timestamp: at(oldest - 1) })], memoryOnly)).toEqual(['TIME_TOO_OLD']);
    expect(check([row({ Timestamp: at(oldest - 1) })])).toEqual([]);
  });

  it('accepts a record of exactly 2048 bytes and refuses 2049', () => {
    const sized = (pad: number) => row({ MessageMetadata: { note: 'a'.repeat(pad) } });
    const base = recordSizes('States', 'demo', [sized(0)])[0]!;
    const fits = sized(TIMESTREAM_MAX_RECORD_BYTES - base);
    expect(recordSizes('States', 'demo', [fits])[0]).toBe(2048);
    expect(check([fits])).toEqual([]);
    const violations = storeRuleViolations(
      { customerId: 'demo', states: [sized(TIMESTREAM_MAX_RECORD_BYTES - base + 1)], events: [] },
      NOW,
      deployed,
    );
    expect(violations).toEqual([
      expect.objectContaining({ code: 'RECORD_TOO_LARGE', bytes: 2049, table: 'States', index: 0 }),
    ]);
  });

  it('counts multi-byte characters of metadata by their UTF-8 bytes', () => {
    const base = recordSizes('States', 'demo', [row({ Metadata: { text: '' } })])[0]!;
    expect(recordSizes('States', 'demo', [row({ Metadata: { text: 'é'.repeat(100) } })])[0]).toBe(base + 200);
  });

  it('checks Events rows too, and names table, row, agent and message', () => {
    const event: EventRow = {
      ...row({ MessageType: 'alarm', Timestamp: at(NOW.getTime() + 3_600_000) }),
      Text: 't',
      State: 's',
      Reason: 'r',
      Severity: 2,
      Active: true,
      Acknowledged: false,
    };
    const [violation] = storeRuleViolations({ customerId: 'demo', states: [row()], events: [event] }, NOW, deployed);
    expect(violation).toMatchObject({
      code: 'TIME_IN_FUTURE',
      table: 'Events',
      index: 0,
      agentId: event.AgentId,
      messageId: event.MessageId,
    });
    expect(violation?.message).toContain('60.0 min ahead of now; the store accepts at most 15.0 min');
  });
});

describe('refusalOf', () => {
  it('gives one reason for a message (time ahead before size), counting rows once', () => {
    const big = { note: 'a'.repeat(3000) };
    const violations = storeRuleViolations(
      {
        customerId: 'demo',
        states: [
          row({ MessageMetadata: big }),
          row({ NameId: 'n2', MessageMetadata: big, Timestamp: at(NOW.getTime() + 16 * 60_000) }),
        ],
        events: [],
      },
      NOW,
      deployed,
    );
    expect(violations.map((v) => v.code)).toEqual(['RECORD_TOO_LARGE', 'TIME_IN_FUTURE', 'RECORD_TOO_LARGE']);
    const refusal = refusalOf(violations);
    expect(refusal?.reason).toBe('TIME_IN_FUTURE');
    expect(refusal?.message).toMatch(
      /^the telemetry store would refuse 2 row\(s\) of this message; first: item 'temperature'/,
    );
    expect(refusal?.details).toHaveLength(3);
    expect(refusalOf([])).toBeUndefined();
  });
});
