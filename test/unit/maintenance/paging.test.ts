// Page arithmetic and the counter plan that serves totals and page positions.
import { describe, expect, it } from 'vitest';
import {
  counterDeltas,
  counterPlan,
  locate,
  mergeDeltas,
  totalOf,
  type CountUnit,
} from '../../../lib/adapters/dynamodb/maintenance-counters';
import { lastDayOf, nextMonth, OPEN_RANGE, previousMonth } from '../../../lib/maintenance/dates';
import { pagedList, pageWindow, totalPages } from '../../../lib/maintenance/paging';

describe('paging', () => {
  it('computes totalPages as ceil(total / pageSize), 0 for no records', () => {
    expect([
      totalPages(0, 100),
      totalPages(1, 100),
      totalPages(100, 100),
      totalPages(101, 100),
      totalPages(10_000, 1000),
      totalPages(10_001, 1),
    ]).toEqual([0, 1, 1, 2, 10, 10_001]);
  });

  it('maps a one-based page to an offset', () => {
    expect(pageWindow({ page: 1, pageSize: 100 })).toEqual({ offset: 0, limit: 100 });
    expect(pageWindow({ page: 50, pageSize: 100 })).toEqual({ offset: 4900, limit: 100 });
  });

  it('keeps the requested page and size in the envelope, also past the end', () => {
    expect(pagedList({ page: 7, pageSize: 10 }, 25, [])).toEqual({ data: [], page: 7, totalPages: 3, pageSize: 10 });
  });
});

describe('dates', () => {
  it('knows month lengths and leap years', () => {
    expect([
      lastDayOf('2024-02'),
      lastDayOf('2025-02'),
      lastDayOf('2025-12'),
      lastDayOf('1900-02'),
      lastDayOf('2000-02'),
    ]).toEqual(['2024-02-29', '2025-02-28', '2025-12-31', '1900-02-28', '2000-02-29']);
    expect([nextMonth('2025-12'), previousMonth('2025-01'), nextMonth('2025-09')]).toEqual([
      '2026-01',
      '2024-12',
      '2025-10',
    ]);
  });
});

describe('counter plan', () => {
  it('reads day counters only inside one month', () => {
    expect(counterPlan({ start: '2025-03-05', end: '2025-03-20' })).toEqual({
      headDays: { from: '2025-03-05', to: '2025-03-20' },
    });
  });

  it('reads whole months as month counters and partial ends as day counters', () => {
    expect(counterPlan({ start: '2025-01-15', end: '2025-04-10' })).toEqual({
      headDays: { from: '2025-01-15', to: '2025-01-31' },
      months: { from: '2025-02', to: '2025-03' },
      tailDays: { from: '2025-04-01', to: '2025-04-10' },
    });
    expect(counterPlan({ start: '2025-01-01', end: '2025-02-28' })).toEqual({
      months: { from: '2025-01', to: '2025-02' },
    });
    expect(counterPlan({ start: '2025-01-31', end: '2025-02-01' })).toEqual({
      headDays: { from: '2025-01-31', to: '2025-01-31' },
      tailDays: { from: '2025-02-01', to: '2025-02-01' },
    });
  });

  it('reads an open range as month counters only', () => {
    expect(counterPlan(OPEN_RANGE)).toEqual({ months: { from: '0000-01', to: '9999-12' } });
  });
});

describe('locating an offset', () => {
  const units: CountUnit[] = [
    { kind: 'day', period: '2025-01-30', n: 3 },
    { kind: 'day', period: '2025-01-31', n: 0 },
    { kind: 'month', period: '2025-02', n: 10 },
    { kind: 'day', period: '2025-03-01', n: 2 },
  ];

  it('finds the unit of each offset and the records before it', () => {
    expect(totalOf(units)).toBe(15);
    expect(locate(units, 0)).toEqual({ unit: units[0], before: 0 });
    expect(locate(units, 2)).toEqual({ unit: units[0], before: 0 });
    expect(locate(units, 3)).toEqual({ unit: units[2], before: 3 });
    expect(locate(units, 14)).toEqual({ unit: units[3], before: 13 });
    expect(locate(units, 15)).toBeUndefined();
  });
});

describe('counter deltas', () => {
  it('adds a new record to its day and month', () => {
    expect([...counterDeltas([], [{ collection: 'JOBDONE', date: '2025-01-05' }]).values()]).toEqual([
      { collection: 'JOBDONE', level: 'D', period: '2025-01-05', delta: 1 },
      { collection: 'JOBDONE', level: 'M', period: '2025-01', delta: 1 },
    ]);
  });

  it('moves a record between days of one month without touching the month', () => {
    expect([
      ...counterDeltas(
        [{ collection: 'JOBDONE', date: '2025-01-05' }],
        [{ collection: 'JOBDONE', date: '2025-01-06' }],
      ).values(),
    ]).toEqual([
      { collection: 'JOBDONE', level: 'D', period: '2025-01-05', delta: -1 },
      { collection: 'JOBDONE', level: 'D', period: '2025-01-06', delta: 1 },
    ]);
  });

  it('changes nothing when a record is written again unchanged, and merges records of one batch', () => {
    const same = counterDeltas(
      [{ collection: 'TASK', date: '2025-01-05' }],
      [{ collection: 'TASK', date: '2025-01-05' }],
    );
    expect(same.size).toBe(0);
    const merged = mergeDeltas([
      counterDeltas([], [{ collection: 'ASSET' }]),
      counterDeltas([], [{ collection: 'ASSET' }]),
      same,
    ]);
    expect(merged).toEqual([{ collection: 'ASSET', level: 'T', period: '', delta: 2 }]);
  });
});
