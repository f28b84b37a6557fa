// Chart colours and UTC axis labels of the playground (pure helpers of lib/playground/web).
import { describe, expect, it } from 'vitest';
import { contrastRatio, hexAlpha, PALETTE, seriesColor, withAlpha } from '../../../lib/playground/web/chart-palette';
import { formatUtc, formatUtcTick, toNumber, toTime } from '../../../lib/playground/web/chart-values';

describe('chart palette', () => {
  it('computes WCAG contrast ratios (black on white is 21, a colour with itself is 1)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#1f77b4', '#1f77b4')).toBe(1);
  });

  it.each(PALETTE)('%s keeps 3:1 against a white and a dark page (WCAG 1.4.11)', (colour) => {
    expect(contrastRatio(colour, '#ffffff')).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(colour, '#1e1e1e')).toBeGreaterThanOrEqual(3);
  });

  it('has ten distinct colours and repeats them beyond ten series', () => {
    expect(new Set(PALETTE).size).toBe(10);
    expect(seriesColor(10)).toBe(PALETTE[0]);
  });

  it('adds alpha to computed colours and hex colours', () => {
    expect(withAlpha('rgb(10, 20, 30)', 0.2)).toBe('rgba(10, 20, 30, 0.2)');
    expect(withAlpha('rgba(10, 20, 30, 1)', 0.5)).toBe('rgba(10, 20, 30, 0.5)');
    expect(hexAlpha('#1f77b4', 0.25)).toBe('#1f77b440');
  });
});

describe('chart values', () => {
  it('formats instants in UTC, with milliseconds only when set', () => {
    expect(formatUtc(Date.UTC(2026, 10, 25, 9, 5, 7))).toBe('2026-11-25 09:05:07');
    expect(formatUtc(Date.UTC(2026, 10, 25, 9, 5, 7, 42))).toBe('2026-11-25 09:05:07.042');
  });

  it('labels axis ticks as precisely as the visible span needs', () => {
    const t = Date.UTC(2026, 10, 25, 9, 5, 7, 42);
    const minute = 60_000;
    const day = 24 * 60 * minute;
    expect(formatUtcTick(t, 30_000)).toBe('09:05:07.042');
    expect(formatUtcTick(t, 5 * minute)).toBe('09:05:07');
    expect(formatUtcTick(t, 60 * minute)).toBe('09:05');
    expect(formatUtcTick(t, 2 * day)).toBe('11-25 09:05');
    expect(formatUtcTick(t, 30 * day)).toBe('2026-11-25');
    expect(formatUtcTick(t, 900 * day)).toBe('2026-11');
  });

  it('reads numbers and times as the service writes them', () => {
    expect(toNumber('9007199254740993')).toBe(9007199254740992);
    expect([toNumber('NaN'), toNumber(''), toNumber(true), toNumber(Infinity)]).toEqual([null, null, null, null]);
    expect(toTime('2026-11-25T09:05:07.0420000Z')).toBe(Date.UTC(2026, 10, 25, 9, 5, 7, 42));
    expect(toTime('2026-11-25T09:05:07+01:00')).toBe(Date.UTC(2026, 10, 25, 8, 5, 7));
    expect(toTime('2026-11-25T09:05:07')).toBe(Date.UTC(2026, 10, 25, 9, 5, 7));
    expect([toTime('25/11/2026'), toTime(null), toTime({})]).toEqual([null, null, null]);
  });
});
