// SQL fragments several catalog entries share. Datetimes are TIMESTAMP (microseconds) and timespans
// BIGINT microseconds on the SQL side of both dialects; where the dialects spell a calendar operation
// differently, the fragment asks the dialect's name.
import type { SqlDialect } from '../sql/dialect';
import type { SqlCall } from './types';

const UNITS = {
  microsecond: 1n,
  millisecond: 1000n,
  second: 1_000_000n,
  minute: 60_000_000n,
  hour: 3_600_000_000n,
  day: 86_400_000_000n,
} as const;
/** Microseconds per fixed-length unit, also looked up by a unit name known only at run time. */
export const MICROS: typeof UNITS & Readonly<Record<string, bigint | undefined>> = UNITS;

/**
 * The JSON texts of a real NaN or infinity held in a dynamic, as an SQL list: the strings the answer
 * shows (json-text.ts), which todouble, isnan, arithmetic and `mv-expand ... to typeof(real)` read
 * back as the real.
 */
export const NON_FINITE = `'"NaN"', '"Infinity"', '"-Infinity"'`;

/** floor(a / n) for a positive integer n (SQL integer division truncates toward zero). */
export const floorDiv = (d: SqlDialect, a: string, n: string): string =>
  d.intDiv(`((${a}) - ((((${a}) % ${n}) + ${n}) % ${n}))`, n);

/** Non-negative a mod n for a positive n. */
export const floorMod = (a: string, n: string): string => `((((${a}) % ${n}) + ${n}) % ${n})`;

export type CalendarPart =
  'year' | 'quarter' | 'month' | 'day' | 'dayofyear' | 'hour' | 'minute' | 'second' | 'week' | 'dow';

/** A calendar field of a TIMESTAMP as BIGINT; dow is 0 for Sunday .. 6 for Saturday, week is ISO 8601's. */
export function calendarPart(d: SqlDialect, part: CalendarPart, ts: string): string {
  if (d.name === 'duckdb') {
    const fn = part === 'dow' ? 'dayofweek' : part;
    return `CAST(${fn}(${ts}) AS BIGINT)`;
  }
  if (part === 'dow') return `(day_of_week(${ts}) % 7)`;
  return `CAST(${part === 'dayofyear' ? 'day_of_year' : part}(${ts}) AS BIGINT)`;
}

/** The microseconds inside the second of a TIMESTAMP, 0 .. 999999. */
export const subSecondMicros = (d: SqlDialect, ts: string): string => floorMod(d.epochMicros(ts), '1000000');

/** ts plus n calendar months (the day is clamped to the month's last day, as Kusto does). */
export function addMonths(d: SqlDialect, ts: string, n: string): string {
  return d.name === 'duckdb' ? `(${ts} + to_months(CAST(${n} AS INTEGER)))` : `date_add('month', ${n}, ${ts})`;
}

/** The start of the day, month or year of ts. */
export const truncate = (unit: 'day' | 'month' | 'year', ts: string): string => `date_trunc('${unit}', ${ts})`;

/** The Sunday 00:00 that starts ts's week (Kusto's weeks start on Sunday). */
export function startOfWeek(d: SqlDialect, ts: string): string {
  return d.addMicros(truncate('day', ts), `-(${calendarPart(d, 'dow', ts)} * ${MICROS.day})`);
}

/** Left-pads the decimal text of an integer with zeros to `width`; longer text is kept whole (lpad would cut it). */
export const pad = (n: string, width: number): string =>
  width === 1
    ? `CAST(${n} AS VARCHAR)`
    : `lpad(CAST(${n} AS VARCHAR), CAST(greatest(${width}, length(CAST(${n} AS VARCHAR))) AS INTEGER), '0')`;

/**
 * DuckDB's `TRY(body(value))`: null where body fails on the value (Kusto's answer for text that does
 * not decode). TRY refuses an operand holding a volatile function ("TRY can not be used in
 * combination with a volatile function"): rand(), or the error() guard another function's SQL carries
 * (punycode_to_string's length limit). A computed value is therefore bound to a lambda's parameter,
 * and TRY reads only that parameter; a column or a literal is written as is.
 */
export const duckTry = (value: string, body: (v: string) => string): string =>
  value.includes('(') ? `list_transform([${value}], _try -> TRY(${body('_try')}))[1]` : `TRY(${body(value)})`;

/** A TIMESTAMP's text with 7 fractional digits (2020-01-01T00:00:00.0000000Z) between `open` and `close`. */
const datetimeText = (d: SqlDialect, ts: string, open: string, close: string): string =>
  d.name === 'duckdb'
    ? `(${open}strftime(${ts}, '%Y-%m-%dT%H:%M:%S.%f') || '0Z${close}')`
    : `(${open}date_format(${ts}, '%Y-%m-%dT%H:%i:%s.%f') || '0Z${close}')`;

/** A TIMESTAMP as text with 7 fractional digits (2020-01-01T00:00:00.0000000Z), null for null. */
export const datetimeFullText = (d: SqlDialect, ts: string): string => datetimeText(d, ts, '', '');

/** A TIMESTAMP as a JSON string with 7 fractional digits, as Kusto writes datetimes inside dynamic values (the docs' printed arrays). */
export const datetimeJson = (d: SqlDialect, ts: string): string => datetimeText(d, ts, `'"' || `, '"');

/**
 * The text of a value that hash_md5/sha1/sha256 and reverse() forcibly cast to string: a datetime's
 * with 7 fractional digits (the hash pages' digests of datetime(2020-01-01) are those of
 * 2020-01-01T00:00:00.0000000Z, not of tostring's 2020-01-01T00:00:00Z; the reverse page prints
 * Z0000000.00:00:21T51-01-7102 for datetime(2017-10-15 12:00)), any other value's tostring text;
 * "" for null, as tostring gives.
 */
export const forcedText = (c: SqlCall): string =>
  c.args[0]!.type === 'datetime' ? `coalesce(${datetimeFullText(c.d, c.a[0]!)}, '')` : c.str(0);

/**
 * The guid text a string holds as toguid() reads it (toguid page: the first 32 characters, hyphens
 * ignored, must be 0-9 or a-f; the rest is ignored), in lower case with the hyphens where a guid
 * prints them; null when it holds none. So `0123456789abcdef0123456789abcdef` is a guid and
 * `{...}` (braces) is not.
 */
export function guidText(d: SqlDialect, text: string): string {
  const digits = `replace(${text}, '-', '')`;
  const part = (from: number, length: number): string => `substr(${digits}, ${from}, ${length})`;
  const printed = [part(1, 8), part(9, 4), part(13, 4), part(17, 4), part(21, 12)].join(` || '-' || `);
  return `CASE WHEN ${d.regexMatch(digits, "'^[0-9a-fA-F]{32}'")} THEN lower(${printed}) END`;
}
