// Engine rows -> response values, by KQL column type. Engine-free: takes the plain JS values that
// @duckdb/node-api's getRowsJson() returns (BIGINT as decimal strings, TIMESTAMP as
// 'YYYY-MM-DD HH:MM:SS[.ffffff]', JSON as text, NaN/Infinity as strings), and also accepts Timestream's
// scalar strings ('YYYY-MM-DD HH:MM:SS.fffffffff'), numbers, bigints and Dates.
// Never throws: a value the type cannot hold (a datetime outside Kusto's range, text where a number
// belongs) becomes null, as Kusto has no such value.
import type { KqlType } from './ir';
import { parseDynamicText } from './json-text';
import { daysInMonth, formatDatetimeTicks, formatTimespanTicks, inDatetimeRange } from './literals';

const TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z?$/;

export function convertRows(rows: readonly (readonly unknown[])[], types: readonly KqlType[]): unknown[][] {
  return rows.map((row) => convertRow(row, types));
}

export function convertRow(row: readonly unknown[], types: readonly KqlType[]): unknown[] {
  return types.map((type, i) => convertValue(row[i], type));
}

/**
 * One value in the response format: datetime as ISO 8601 UTC ending in Z (up to 7 fractional digits),
 * timespan (BIGINT microseconds on the SQL side) as [-][d.]hh:mm:ss[.fffffff], dynamic as the JSON value,
 * real NaN/Infinity as strings, long as a number when it is a safe integer (else its decimal string,
 * likewise an integer inside a dynamic value).
 */
export function convertValue(value: unknown, type: KqlType): unknown {
  if (value === null || value === undefined) return type === 'string' ? '' : null;
  switch (type) {
    case 'string':
    case 'guid':
      return String(value);
    case 'long':
    case 'int':
      return integer(value);
    case 'real':
      return real(value);
    case 'decimal':
      return decimal(value);
    case 'bool':
      return typeof value === 'boolean' ? value : value === 'true' || value === 1 || value === '1';
    case 'datetime':
      return datetime(value);
    case 'timespan': {
      const micros = typeof value === 'bigint' ? value : wholeNumber(value);
      return micros === undefined ? null : formatTimespanTicks(micros * 10n);
    }
    case 'dynamic':
      if (typeof value !== 'string') return value;
      try {
        return parseDynamicText(value);
      } catch {
        return value;
      }
  }
}

function integer(value: unknown): number | string | null {
  const big = typeof value === 'bigint' ? value : wholeNumber(value);
  if (big === undefined) return null;
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(big)
    : big.toString();
}

/** The integer part of a number or its decimal text ('12', '-3.5', 7), or undefined when there is none. */
function wholeNumber(value: unknown): bigint | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? BigInt(Math.trunc(value)) : undefined;
  const m = /^\s*([+-]?\d+)(?:\.\d*)?\s*$/.exec(String(value));
  return m ? BigInt(m[1]!) : undefined;
}

function real(value: unknown): number | string {
  const n = typeof value === 'number' ? value : Number(value);
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return n;
}

/**
 * How a decimal held as a double is snapped to 15 significant digits (below; tostring() in the SQL
 * too): when it is within about one unit in its last place of such a number and below 1e15
 * (looser, a 16-digit quotient such as 6.154285714285715 would be snapped too).
 */
export const DECIMAL_SNAP = { withinUlp: 2 ** -52, below: 1e15 } as const;

/**
 * A decimal as the answer's value. The engines hold a decimal as a double (docs/query-api.md), so
 * decimal(0.1) + decimal(0.2) comes back as 0.30000000000000004 where Kusto's exact decimal gives
 * 0.3: a value within about a unit in the last place of a number of 15 significant digits is that
 * number. Other values, and every one from 1e15 on (parse_version's 1000000020000000300000004 is
 * nearer its double than 15 digits), are kept as they are.
 */
function decimal(value: unknown): number | string {
  const n = real(value);
  if (typeof n !== 'number' || n === 0 || Math.abs(n) >= DECIMAL_SNAP.below) return n;
  const short = Number(n.toPrecision(15));
  return Math.abs(short - n) <= Math.abs(n) * DECIMAL_SNAP.withinUlp ? short : n;
}

/**
 * An engine timestamp as Kusto's datetime text, or null when Kusto has no such datetime: outside
 * 0001-01-01 .. 9999-12-31 (DuckDB writes year 10000 as '10000-01-01 ...', BC dates with ' (BC)',
 * and has 'infinity'), or not a timestamp at all.
 */
function datetime(value: unknown): string | null {
  if (typeof value === 'string') {
    const direct = engineTimestampText(value);
    if (direct !== undefined) return direct;
  }
  let ticks: bigint | undefined;
  if (value instanceof Date) {
    const ms = value.getTime();
    ticks = Number.isNaN(ms) ? undefined : BigInt(ms) * 10_000n;
  } else {
    const m = TIMESTAMP_RE.exec(String(value));
    const ms = m ? Date.parse(`${m[1]}T${m[2]}Z`) : NaN;
    if (m && !Number.isNaN(ms)) ticks = BigInt(ms) * 10_000n + BigInt(((m[3] ?? '') + '0000000').slice(0, 7));
  }
  return ticks !== undefined && inDatetimeRange(ticks) ? formatDatetimeTicks(ticks) : null;
}

/**
 * A timestamp given as microseconds since 1970 (DuckDB's TIMESTAMP as its vector holds it) as
 * Kusto's datetime text, or null outside Kusto's range: the same text datetime() gives for the
 * engine's text of that timestamp, without writing and parsing that text.
 */
export function datetimeFromMicros(micros: bigint): string | null {
  const ticks = micros * 10n;
  return inDatetimeRange(ticks) ? formatDatetimeTicks(ticks) : null;
}

/**
 * DuckDB's `YYYY-MM-DD HH:MM:SS[.f{1,9}]` of a year 0001-9999 straight to Kusto's text (T, the
 * fraction's trailing zeros dropped, Z): what the parse and format below would give, without them,
 * for every timestamp cell of an answer. Undefined for any other shape (then the general path).
 */
function engineTimestampText(text: string): string | undefined {
  const n = text.length;
  if (n < 19 || n === 20 || n > 29) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== ' ' || text[13] !== ':' || text[16] !== ':') return undefined;
  if (n > 19 && text[19] !== '.') return undefined;
  for (let i = 0; i < n; i++) {
    if (i === 4 || i === 7 || i === 10 || i === 13 || i === 16 || i === 19) continue;
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (twoDigits(text, 11) > 23 || twoDigits(text, 14) > 59 || twoDigits(text, 17) > 59) return undefined;
  // Kusto keeps 7 fractional digits (ticks): more are cut, as the general path does.
  let end = Math.min(n, 27);
  while (end > 20 && text.charCodeAt(end - 1) === 48) end--;
  return `${text.slice(0, 10)}T${text.slice(11, 19)}${end > 20 ? text.slice(19, end) : ''}Z`;
}

function twoDigits(text: string, i: number): number {
  return (text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48;
}
