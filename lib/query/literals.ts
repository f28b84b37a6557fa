// Parsing of datetime and timespan literal text into exact integers: datetimes as ticks (100 ns) since
// the Unix epoch, timespans as ticks. Returns undefined when the text is not a valid literal.
import { normalizeDatetimeText } from './datetime-formats';

const TICK = 1n;
const MICRO = 10n;
const MILLI = 10_000n;
const SECOND = 10_000_000n;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;
const DAY = 24n * HOUR;

export const TICKS_PER_MICRO = MICRO;
export const TICKS_PER_DAY = DAY;

/** Kusto's long (and timespan ticks) is 64-bit. */
export const MAX_LONG = 2n ** 63n - 1n;
export const MIN_LONG = -(2n ** 63n);
export const MAX_INT = 2n ** 31n - 1n;
export const MIN_INT = -(2n ** 31n);

/**
 * Kusto's datetime range, in ticks since the Unix epoch: 0001-01-01T00:00:00 to
 * 9999-12-31T23:59:59.9999999 (https://learn.microsoft.com/en-us/kusto/query/scalar-data-types/datetime).
 */
export const MIN_DATETIME_TICKS = -621_355_968_000_000_000n;
export const MAX_DATETIME_TICKS = 2_534_023_008_000_000_000n - 1n;

export const inDatetimeRange = (ticks: bigint): boolean => ticks >= MIN_DATETIME_TICKS && ticks <= MAX_DATETIME_TICKS;
export const inLongRange = (value: bigint): boolean => value >= MIN_LONG && value <= MAX_LONG;

export const TIMESPAN_UNITS: ReadonlyMap<string, bigint> = new Map([
  ['d', DAY],
  ['day', DAY],
  ['days', DAY],
  ['h', HOUR],
  ['hr', HOUR],
  ['hrs', HOUR],
  ['hour', HOUR],
  ['hours', HOUR],
  ['m', MINUTE],
  ['min', MINUTE],
  ['minute', MINUTE],
  ['minutes', MINUTE],
  ['s', SECOND],
  ['sec', SECOND],
  ['second', SECOND],
  ['seconds', SECOND],
  ['ms', MILLI],
  ['milli', MILLI],
  ['millis', MILLI],
  ['millisec', MILLI],
  ['millisecond', MILLI],
  ['milliseconds', MILLI],
  ['micro', MICRO],
  ['micros', MICRO],
  ['microsec', MICRO],
  ['microsecond', MICRO],
  ['microseconds', MICRO],
  ['tick', TICK],
  ['ticks', TICK],
]);

/** Kusto's nanosecond units: a hundredth of a tick each, so a literal in them is truncated to whole ticks. */
export const NANOSECOND_UNITS: ReadonlySet<string> = new Set(['nano', 'nanos', 'nanosec', 'nanosecond', 'nanoseconds']);

// A zone only after a time: the datetime page's formats put %z after the seconds (a time of minutes
// also reads one, as todatetime() does); `2019-01-22-05` or `2019-01-22 +0330` is no datetime.
const DATETIME_RE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:\s*(Z|[+-]\d{2}(?::?\d{2})?))?)?$/;

/**
 * Ticks since 1970-01-01 for `2024-01-01`, `2024-01-01 10:30:00.123`, ISO 8601 with T and Z or offset,
 * and the RFC 822, RFC 850 and Sortable forms of datetime-formats.ts; undefined when the text is not a datetime or the instant is outside Kusto's range.
 */
export function parseDatetimeTicks(text: string): bigint | undefined {
  const ticks = parseDatetimeTicksUnbounded(text);
  return ticks !== undefined && inDatetimeRange(ticks) ? ticks : undefined;
}

/** parseDatetimeTicks without the range check (year 0000, or 0001-01-01 with a positive offset). */
export function parseDatetimeTicksUnbounded(text: string): bigint | undefined {
  const iso = parseIsoUtc(text);
  if (iso !== undefined) return iso;
  const m = DATETIME_RE.exec(normalizeDatetimeText(unquote(text).trim()));
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day > daysInMonth(year, month)) return undefined; // 2024-02-31
  // Calendar arithmetic, not a Date: every compile parses the caller's time window (twice).
  const seconds = (daysFromCivil(year, month, day) * 24 + hour) * 3600 + minute * 60 + second;
  let ticks = BigInt(seconds) * SECOND + BigInt((frac + '0000000').slice(0, 7));
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1n : 1n;
    const digits = zone.slice(1).replace(':', '');
    ticks -= sign * (BigInt(Number(digits.slice(0, 2))) * HOUR + BigInt(Number(digits.slice(2, 4))) * MINUTE);
  }
  return ticks;
}

/**
 * `yyyy-mm-ddThh:mm:ss[.fff]Z` by fixed positions, else undefined (then the general parse decides):
 * the form of every request's window, which each compile reads twice.
 */
function parseIsoUtc(text: string): bigint | undefined {
  if ((text.length !== 20 && text.length !== 24) || text.charCodeAt(text.length - 1) !== 90 /* Z */) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return undefined;
  if (text.length === 24 && text[19] !== '.') return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  const millis = text.length === 24 ? digitsAt(text, 20, 23) : 0;
  // NaN fails every comparison: a non-digit falls through to the general parse as well.
  if (!(month >= 1 && month <= 12 && day >= 1 && hour <= 23 && minute <= 59 && second <= 59 && millis >= 0))
    return undefined;
  if (!(year >= 0) || day > daysInMonth(year, month)) return undefined;
  const seconds = (daysFromCivil(year, month, day) * 24 + hour) * 3600 + minute * 60 + second;
  return BigInt(seconds * 1000 + millis) * MILLI;
}

/** The decimal number text[from, to), NaN when a character there is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

// Minutes and seconds of one digit as .NET's TimeSpan reads them (`time(1:2:3)`); a space before
// the unit as in the timespan docs' `time(15 seconds)`.
const CLOCK_RE = /^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?$/;
const UNIT_RE = /^(-)?(\d+(?:\.\d+)?) ?([a-z]+)$/;

/**
 * Ticks for `1h`, `1.5d`, `0.00:03:00`, `00:03:00`, or a bare number of days (`timespan(2)`);
 * undefined when the text is not a timespan or is beyond a 64-bit tick count.
 */
export function parseTimespanTicks(text: string): bigint | undefined {
  const ticks = timespanTicks(unquote(text).trim());
  return ticks !== undefined && inLongRange(ticks) ? ticks : undefined;
}

function timespanTicks(raw: string): bigint | undefined {
  // More digits than any 64-bit tick count has: not worth a big-number parse.
  if (/\d{25}/.test(raw)) return undefined;
  const clock = CLOCK_RE.exec(raw);
  if (clock) {
    const [, neg, days = '0', h, mi, s = '0', frac = ''] = clock;
    const ticks =
      BigInt(days) * DAY +
      BigInt(h!) * HOUR +
      BigInt(mi!) * MINUTE +
      BigInt(s) * SECOND +
      BigInt((frac + '0000000').slice(0, 7));
    return neg ? -ticks : ticks;
  }
  const unit = UNIT_RE.exec(raw);
  if (unit) {
    // The units of a bare literal (its lexer), nanoseconds too: `timespan(value)` takes the same values.
    const nanos = NANOSECOND_UNITS.has(unit[3]!);
    const perUnit = nanos ? 1n : TIMESPAN_UNITS.get(unit[3]!);
    if (perUnit === undefined) return undefined;
    const scaled = scaleDecimal(unit[2]!, perUnit);
    const ticks = nanos ? scaled / 100n : scaled;
    return unit[1] ? -ticks : ticks;
  }
  if (/^-?\d+(\.\d+)?$/.test(raw)) {
    const ticks = scaleDecimal(raw.replace('-', ''), DAY);
    return raw.startsWith('-') ? -ticks : ticks;
  }
  return undefined;
}

/** `1.5` (digits, an optional fraction) times perUnit, exact, truncated toward zero to whole ticks. */
export function scaleDecimal(decimal: string, perUnit: bigint): bigint {
  const [intPart = '0', fracPart = ''] = decimal.split('.');
  const scale = 10n ** BigInt(fracPart.length);
  return ((BigInt(intPart) * scale + BigInt(fracPart || '0')) * perUnit) / scale;
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

/** `2024-01-01T10:30:00.1234567Z` with the fraction trimmed of trailing zeros (Kusto's ISO form). */
export function formatDatetimeTicks(ticks: bigint): string {
  // Kusto's range by calendar arithmetic (every scan writes two of these); other years (a bound
  // clamped to year 0000) through Date, which spells them.
  if (ticks >= MIN_DATETIME_TICKS && ticks <= MAX_DATETIME_TICKS) {
    let days = ticks / DAY;
    let rest = ticks % DAY;
    if (rest < 0n) {
      rest += DAY;
      days -= 1n;
    }
    const [year, month, day] = civilFromDays(Number(days));
    const dayTicks = Number(rest); // < 8.64e11: exact as a number
    const secondOfDay = Math.floor(dayTicks / 10_000_000);
    let fraction = String(dayTicks % 10_000_000).padStart(7, '0');
    let end = fraction.length;
    while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
    fraction = fraction.slice(0, end);
    return (
      `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(Math.floor(secondOfDay / 3600))}:` +
      `${two(Math.floor(secondOfDay / 60) % 60)}:${two(secondOfDay % 60)}${fraction ? '.' + fraction : ''}Z`
    );
  }
  const ms = ticks / MILLI - (ticks % MILLI < 0n ? 1n : 0n);
  const sub = Number(ticks - ms * MILLI); // 0..9999 ticks inside the millisecond
  const iso = new Date(Number(ms)).toISOString(); // yyyy-mm-ddThh:mm:ss.mmmZ
  const fraction = (iso.slice(20, 23) + String(sub).padStart(4, '0')).replace(/0+$/, '');
  return iso.slice(0, 19) + (fraction ? '.' + fraction : '') + 'Z';
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Days in a month of the proleptic Gregorian calendar (month 1-12). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar, and back: Howard Hinnant's
 * algorithms (chrono-Compatible Low-Level Date Algorithms), in eras of 400 years.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - Math.floor((153 * mp + 2) / 5) + 1];
}

/** `[-][d.]hh:mm:ss[.fffffff]`, the response format of timespans. */
export function formatTimespanTicks(ticks: bigint): string {
  const neg = ticks < 0n;
  let t = neg ? -ticks : ticks;
  const days = t / DAY;
  t %= DAY;
  const hours = t / HOUR;
  t %= HOUR;
  const minutes = t / MINUTE;
  t %= MINUTE;
  const seconds = t / SECOND;
  const frac = t % SECOND;
  const two = (n: bigint): string => String(n).padStart(2, '0');
  return (
    (neg ? '-' : '') +
    (days > 0n ? `${days}.` : '') +
    `${two(hours)}:${two(minutes)}:${two(seconds)}` +
    (frac > 0n ? '.' + String(frac).padStart(7, '0') : '')
  );
}
