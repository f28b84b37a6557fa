// Datetime text <-> ticks by calendar arithmetic (literals.ts), checked against JavaScript's Date
// (proleptic Gregorian too) over Kusto's whole range, and against hand-checked instants.
import { describe, expect, it } from 'vitest';
import {
  formatDatetimeTicks,
  MAX_DATETIME_TICKS,
  MIN_DATETIME_TICKS,
  parseDatetimeTicks,
  parseDatetimeTicksUnbounded,
  parseTimespanTicks,
} from '../../../lib/query/literals';
import { seededRandom } from './seeded-random';

const MILLI = 10_000n;

/** The reference: Date's ISO text with the four sub-millisecond digits appended, zeros trimmed. */
function referenceFormat(ticks: bigint): string {
  const ms = ticks / MILLI - (ticks % MILLI < 0n ? 1n : 0n);
  const iso = new Date(Number(ms)).toISOString();
  const fraction = (iso.slice(20, 23) + String(Number(ticks - ms * MILLI)).padStart(4, '0')).replace(/0+$/, '');
  return iso.slice(0, 19) + (fraction ? '.' + fraction : '') + 'Z';
}

describe('formatDatetimeTicks', () => {
  it('spells instants as Kusto does, fraction trimmed', () => {
    // Prepare / Act / Assess
    expect(formatDatetimeTicks(0n)).toBe('1970-01-01T00:00:00Z');
    expect(formatDatetimeTicks(-1n)).toBe('1969-12-31T23:59:59.9999999Z');
    expect(formatDatetimeTicks(MIN_DATETIME_TICKS)).toBe('0001-01-01T00:00:00Z');
    expect(formatDatetimeTicks(MAX_DATETIME_TICKS)).toBe('9999-12-31T23:59:59.9999999Z');
    expect(formatDatetimeTicks(17_092_512_000_000_000n + 1_230_000n)).toBe('2024-03-01T00:00:00.123Z');
    expect(formatDatetimeTicks(17_091_648_000_000_000n)).toBe('2024-02-29T00:00:00Z');
  });

  it('agrees with Date over 4,000 random instants of the whole range', () => {
    const next = seededRandom(15);
    const span = Number(MAX_DATETIME_TICKS - MIN_DATETIME_TICKS);
    for (let i = 0; i < 4_000; i++) {
      const ticks = MIN_DATETIME_TICKS + BigInt(Math.floor(next() * span)) + BigInt(Math.floor(next() * 10_000_000));
      const clamped = ticks > MAX_DATETIME_TICKS ? MAX_DATETIME_TICKS : ticks;
      expect(formatDatetimeTicks(clamped), String(clamped)).toBe(referenceFormat(clamped));
    }
  });

  it('spells a year outside Kusto range as Date does (a clamped window bound never reaches here)', () => {
    const yearZero = MIN_DATETIME_TICKS - 10n * 86_400n * 10_000_000n;
    expect(formatDatetimeTicks(yearZero)).toBe(referenceFormat(yearZero));
  });
});

describe('parseDatetimeTicks', () => {
  it('reads the text it writes back to the same ticks', () => {
    const next = seededRandom(51);
    const span = Number(MAX_DATETIME_TICKS - MIN_DATETIME_TICKS);
    for (let i = 0; i < 4_000; i++) {
      const ticks = MIN_DATETIME_TICKS + BigInt(Math.floor(next() * span));
      const text = formatDatetimeTicks(ticks);
      expect(parseDatetimeTicks(text), text).toBe(ticks);
    }
  });

  it('agrees with Date.parse on dates with offsets', () => {
    const next = seededRandom(7);
    for (let i = 0; i < 5_000; i++) {
      const ms = Math.floor((next() - 0.3) * 4e12);
      const iso = new Date(ms).toISOString(); // 1843 .. 2096
      const zone = `${next() < 0.5 ? '+' : '-'}0${Math.floor(next() * 10)}:${next() < 0.5 ? '00' : '30'}`;
      const text = iso.replace('Z', zone);
      expect(parseDatetimeTicks(text), text).toBe(BigInt(Date.parse(text)) * MILLI);
    }
  });

  it('reads ISO 8601 UTC text (the request window form) as Date.parse does', () => {
    const next = seededRandom(24);
    for (let i = 0; i < 4_000; i++) {
      const ms = -62_135_596_800_000 + Math.floor(next() * 315_537_897_599_999); // years 0001 .. 9999
      const text = new Date(ms).toISOString();
      const whole = text.replace(/\.\d{3}Z$/, 'Z');
      expect(parseDatetimeTicks(text), text).toBe(BigInt(Date.parse(text)) * MILLI);
      expect(parseDatetimeTicks(whole), whole).toBe(BigInt(Date.parse(whole)) * MILLI);
    }
    expect(parseDatetimeTicks('2024-02-30T00:00:00Z')).toBeUndefined();
    expect(parseDatetimeTicks('2024-13-01T00:00:00.000Z')).toBeUndefined();
    expect(parseDatetimeTicks('2024-01-01T24:00:00.000Z')).toBeUndefined();
    expect(parseDatetimeTicks('2024-01-01T00:00:0x.000Z')).toBeUndefined();
  });

  it('refuses days a month does not have, and keeps leap years right', () => {
    expect(parseDatetimeTicks('2024-02-29')).toBe(17_091_648_000_000_000n);
    expect(parseDatetimeTicks('2023-02-29')).toBeUndefined();
    expect(parseDatetimeTicks('1900-02-29')).toBeUndefined();
    expect(parseDatetimeTicks('2000-02-29')).toBeDefined();
    expect(parseDatetimeTicks('2024-04-31')).toBeUndefined();
    expect(parseDatetimeTicks('2024-12-32')).toBeUndefined();
    expect(parseDatetimeTicks('2024-00-10')).toBeUndefined();
    expect(parseDatetimeTicks('2024-01-00')).toBeUndefined();
  });

  it('reads year 0000 only unbounded', () => {
    expect(parseDatetimeTicks('0000-12-31')).toBeUndefined();
    expect(parseDatetimeTicksUnbounded('0000-12-31')).toBe(MIN_DATETIME_TICKS - 864_000_000_000n);
  });
});

// timespan page: `timespan(value)` takes the values a bare literal spells, so the nanosecond units the
// lexer reads (`1000nanoseconds` is 10 ticks) read inside it too (casemut M7: `timespan(1000nanoseconds)` was refused).
describe('parseTimespanTicks', () => {
  it('reads nanosecond units as the lexer does, truncated to whole ticks', () => {
    // Act
    const read = ['1000nanoseconds', '5000nano', '250nanos', '-300nanosec', '1.5nanosecond', '100ms'].map(
      parseTimespanTicks,
    );
    // Assess
    expect(read).toEqual([10n, 50n, 2n, -3n, 0n, 1_000_000n]);
    expect(parseTimespanTicks('10nanoweeks')).toBeUndefined();
  });
});
