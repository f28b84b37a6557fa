// Totals and page positions of the date-ordered maintenance collections, from counters instead
// of the records (docs/dynamodb.md, "Maintenance"). Every record adds 1 to the counter of its day
// and of its month; a range is covered by month counters for the whole months inside it and day
// counters for the partial months at its ends. Pure functions: the adapter runs the queries.
import { firstDayOf, lastDayOf, monthOf, nextMonth, previousMonth, type DateRange } from '../../maintenance/dates';

/** A run of days whose count is known: one day, or one whole month. */
export interface CountUnit {
  readonly kind: 'day' | 'month';
  /** YYYY-MM-DD for a day, YYYY-MM for a month. */
  readonly period: string;
  readonly n: number;
}

/** Which counter ranges to read for a date range (each becomes one Query on the plant partition). */
export interface CounterPlan {
  readonly headDays?: { readonly from: string; readonly to: string };
  readonly months?: { readonly from: string; readonly to: string };
  readonly tailDays?: { readonly from: string; readonly to: string };
}

export function counterPlan(range: DateRange): CounterPlan {
  const startMonth = monthOf(range.start);
  const endMonth = monthOf(range.end);
  if (startMonth === endMonth) return { headDays: { from: range.start, to: range.end } };
  const partialStart = range.start !== firstDayOf(startMonth);
  const partialEnd = range.end !== lastDayOf(endMonth);
  const fullFrom = partialStart ? nextMonth(startMonth) : startMonth;
  const fullTo = partialEnd ? previousMonth(endMonth) : endMonth;
  return {
    ...(partialStart ? { headDays: { from: range.start, to: lastDayOf(startMonth) } } : {}),
    ...(fullFrom <= fullTo ? { months: { from: fullFrom, to: fullTo } } : {}),
    ...(partialEnd ? { tailDays: { from: firstDayOf(endMonth), to: range.end } } : {}),
  };
}

export function totalOf(units: readonly CountUnit[]): number {
  return units.reduce((sum, u) => sum + u.n, 0);
}

/** The unit holding the record at `offset` (0-based) and how many records come before the unit. */
export function locate(units: readonly CountUnit[], offset: number): { unit: CountUnit; before: number } | undefined {
  let before = 0;
  for (const unit of units) {
    if (unit.n > 0 && before + unit.n > offset) return { unit, before };
    before += Math.max(0, unit.n);
  }
  return undefined;
}

/** +1/-1 per day and month counter a record joins or leaves; unchanged memberships cancel out. */
export function counterDeltas(
  leaving: readonly Membership[],
  joining: readonly Membership[],
): Map<string, CounterDelta> {
  const deltas = new Map<string, CounterDelta>();
  const add = (m: Membership, d: number) => {
    const periods: Array<['D' | 'M' | 'T', string]> =
      m.date === undefined
        ? [['T', '']]
        : [
            ['D', m.date],
            ['M', monthOf(m.date)],
          ];
    for (const [level, period] of periods) {
      const id = `${m.collection}|${level}|${period}`;
      const current = deltas.get(id) ?? { collection: m.collection, level, period, delta: 0 };
      deltas.set(id, { ...current, delta: current.delta + d });
    }
  };
  for (const m of leaving) add(m, -1);
  for (const m of joining) add(m, 1);
  for (const [id, d] of deltas) if (d.delta === 0) deltas.delete(id);
  return deltas;
}

/** A record counts in a collection on a date (jobs, tasks) or, without a date, in a total (assets). */
export interface Membership {
  readonly collection: string;
  readonly date?: string;
}

export interface CounterDelta {
  readonly collection: string;
  /** D: day counter, M: month counter, T: total without dates. */
  readonly level: 'D' | 'M' | 'T';
  readonly period: string;
  readonly delta: number;
}

/** Merges deltas of several records (one transaction updates each counter once). */
export function mergeDeltas(all: Iterable<Map<string, CounterDelta>>): CounterDelta[] {
  const merged = new Map<string, CounterDelta>();
  for (const deltas of all) {
    for (const [id, d] of deltas) {
      const current = merged.get(id);
      merged.set(id, current ? { ...current, delta: current.delta + d.delta } : d);
    }
  }
  return [...merged.values()].filter((d) => d.delta !== 0);
}
