// Calendar dates of the maintenance API (YYYY-MM-DD, no time zone) and the month arithmetic the
// counters need. Ranges are inclusive at both ends; an open end is the earliest or latest date.
import { z } from 'zod';

/** A real calendar date: 2024-02-29 passes, 2025-02-29 and 2025-13-01 do not. */
export const isoDate = z.iso.date('must be a calendar date YYYY-MM-DD');

export const EARLIEST_DATE = '0000-01-01';
export const LATEST_DATE = '9999-12-31';

export interface DateRange {
  /** Inclusive; EARLIEST_DATE when the client gave none. */
  readonly start: string;
  /** Inclusive; LATEST_DATE when the client gave none. */
  readonly end: string;
}

export const OPEN_RANGE: DateRange = { start: EARLIEST_DATE, end: LATEST_DATE };

export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function firstDayOf(month: string): string {
  return `${month}-01`;
}

export function lastDayOf(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return `${month}-${String(days).padStart(2, '0')}`;
}

export function nextMonth(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return mon === 12
    ? `${String(year + 1).padStart(4, '0')}-01`
    : `${String(year).padStart(4, '0')}-${String(mon + 1).padStart(2, '0')}`;
}

export function previousMonth(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return mon === 1
    ? `${String(year - 1).padStart(4, '0')}-12`
    : `${String(year).padStart(4, '0')}-${String(mon - 1).padStart(2, '0')}`;
}

/** Today in UTC as YYYY-MM-DD. */
export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}
