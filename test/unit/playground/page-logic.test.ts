// The page's logic that needs no browser: the time window it sends (the query API's startTime /
// endTime) and the CSV / JSON it copies.
import { describe, expect, it } from 'vitest';
import { toCsv, toJson } from '../../../lib/playground/web/copy-formats';
import { localInputValue, timeWindow } from '../../../lib/playground/web/time-window';
import type { QueryAnswer } from '../../../lib/playground/web/answer-shape';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');

describe('time window', () => {
  it('ends presets now, in the API format with milliseconds', () => {
    expect(timeWindow('1h', { start: '', end: '' }, NOW)).toEqual({
      startTime: '2026-11-25T11:00:00.000Z',
      endTime: '2026-11-25T12:00:00.000Z',
    });
    expect(timeWindow('7d', { start: '', end: '' }, NOW).startTime).toBe('2026-11-18T12:00:00.000Z');
  });

  it('reads a custom window as UTC and refuses an empty or reversed one', () => {
    expect(timeWindow('custom', { start: '2026-11-01T00:00', end: '2026-11-02T06:30:15' }, NOW)).toEqual({
      startTime: '2026-11-01T00:00:00.000Z',
      endTime: '2026-11-02T06:30:15.000Z',
    });
    expect(() => timeWindow('custom', { start: '', end: '2026-11-02T00:00' }, NOW)).toThrow(/both ends/);
    expect(() => timeWindow('custom', { start: '2026-11-02T00:00', end: '2026-11-01T00:00' }, NOW)).toThrow(/after/);
    expect(localInputValue(NOW)).toBe('2026-11-25T12:00:00');
  });
});

describe('copy formats', () => {
  const answer: QueryAnswer = {
    data: {
      columns: [
        { name: 'Name', columnType: 'string', dataType: 'String' },
        { name: 'Value', columnType: 'dynamic', dataType: 'Object' },
        { name: 'n', columnType: 'long', dataType: 'Int64' },
      ],
      rows: [
        ['a "quoted", name', { k: [1, 2] }, 3],
        ['line\nbreak', null, null],
      ],
    },
    meta: { truncated: false, rowLimit: 10, maxResponseBytes: 100 },
  };

  it('writes RFC 4180 CSV with dynamic values as JSON and nulls empty', () => {
    expect(toCsv(answer)).toBe('Name,Value,n\r\n"a ""quoted"", name","{""k"":[1,2]}",3\r\n"line\nbreak",,\r\n');
  });

  it('writes the rows as objects keyed by column', () => {
    expect(JSON.parse(toJson(answer))).toEqual([
      { Name: 'a "quoted", name', Value: { k: [1, 2] }, n: 3 },
      { Name: 'line\nbreak', Value: null, n: null },
    ]);
  });
});
