// Cell values of a query answer as a chart reads them: numbers, instants, labels. Pure and
// DOM-free (unit-tested in node). Nothing here throws: a value that does not fit becomes null,
// and the caller counts what it skipped.
import type { AnswerColumn } from './answer-shape';

/** Column types a chart can put on a value axis (KQL's numeric types). */
const NUMERIC = new Set(['int', 'long', 'real', 'decimal']);
/** Column types that label: a category, a slice, a series. */
const LABELS = new Set(['string', 'guid', 'bool', 'dynamic']);

export const isNumeric = (column: AnswerColumn): boolean => NUMERIC.has(column.columnType);
export const isDatetime = (column: AnswerColumn): boolean => column.columnType === 'datetime';
export const isLabel = (column: AnswerColumn): boolean => LABELS.has(column.columnType);

/**
 * A numeric cell as a finite number: the service writes long and decimal as JSON numbers or, when
 * they do not fit a double exactly, as strings; real may arrive as "NaN" or "Infinity".
 */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

// ISO 8601 as Kusto writes it, with up to 7 fractional digits (100 ns ticks) that Date.parse
// does not promise to read: the fraction is cut to milliseconds before parsing.
const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;

/** A datetime cell as milliseconds since the epoch (UTC when the text has no zone, as Kusto's are). */
export function toTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  // The common case first: JavaScript's own ISO form, which Date.parse reads fast.
  if (value.length === 24 && value.endsWith('Z')) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  const match = ISO.exec(value.trim());
  if (!match) return null;
  const fraction = (match[2] ?? '').slice(0, 3).padEnd(3, '0');
  const ms = Date.parse(`${match[1]}.${fraction}${match[3] ?? 'Z'}`);
  return Number.isNaN(ms) ? null : ms;
}

/** Any cell as the text of a label; null and empty become a visible placeholder. */
export function toLabel(value: unknown): string {
  if (value === null || value === undefined) return '(null)';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A comma-separated column list of a render property (`ycolumns=a,b`, `series=x, y`). */
export function columnList(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** An instant as full UTC text for tooltips and legends: seconds always, milliseconds when set. */
export function formatUtc(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const text = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return d.getUTCMilliseconds() === 0 ? text : `${text}.${pad(d.getUTCMilliseconds(), 3)}`;
}

/**
 * An axis tick in UTC, as precise as the visible span needs (the page shows every datetime in
 * UTC, as the service stores them, never in the browser's zone; the axis title says so).
 */
export function formatUtcTick(ms: number, spanMs: number): string {
  const full = formatUtc(ms);
  if (full === '') return '';
  const date = full.slice(0, 10);
  const time = full.slice(11, 16);
  if (spanMs < 60_000) return full.slice(11);
  if (spanMs < 10 * 60_000) return full.slice(11, 19);
  if (spanMs < 86_400_000) return time;
  if (spanMs < 4 * 86_400_000) return `${date.slice(5)} ${time}`;
  if (spanMs < 2 * 365 * 86_400_000) return date;
  return date.slice(0, 7);
}
