// The datetime text forms Kusto reads besides ISO 8601: the RFC 822, RFC 850 and Sortable tables of
// the datetime data type page (https://learn.microsoft.com/en-us/kusto/query/scalar-data-types/datetime),
// which apply to datetime(...) literals and to todatetime() alike. One pattern serves the literal
// parser (here) and the SQL of todatetime() in both dialects, so that the two always agree.
// The patterns use only what JavaScript, RE2 (DuckDB) and Joni (Timestream) read the same way; they
// are matched case-insensitively (month and day names and GMT, as .NET reads them).

const WEEKDAY = '(?:mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)';

/** Month abbreviations in calendar order: a month's number is its position + 1. */
export const MONTH_ABBREVIATIONS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
] as const;

/**
 * `[Sat, ]8 Nov 14 15:05[:02][ GMT]` (RFC 822) and `[Saturday, ]08-Nov-14 15:05[:02][ GMT]` (RFC 850).
 * Groups: 1 day, 2 month abbreviation, 3 year (two digits as the pages print, or four as RFC 1123
 * writes it), 4 hour (0-23: DuckDB's cast would read 24:00 as the next day), 5 minute, 6 second (empty when absent).
 */
export const RFC_DATETIME_PATTERN =
  `^\\s*(?:${WEEKDAY},\\s*)?(\\d{1,2})[ -](${MONTH_ABBREVIATIONS.join('|')})[ -](\\d{2}|\\d{4})` +
  `\\s+([01]?\\d|2[0-3]):(\\d{2})(?::(\\d{2}))?(?:\\s+gmt)?\\s*$`;

/** The ` GMT` after a time in the Sortable table (`2014-11-08 15:05 GMT`); group 1 is the time's last digit. */
export const GMT_SUFFIX_PATTERN = '(\\d)\\s+gmt\\s*$';

/**
 * Spaces before a numeric zone offset at the end (`2019-01-22 03:54:16 +0330`, `... -05:00`, `... -05`),
 * which the engines' ISO readers refuse; group 1 is the offset. The graph scenarios page prints a
 * result that needs `+0330` after a space read. Written back without the space.
 */
export const SPACED_OFFSET_PATTERN = '\\s+([+-]\\d{2}(?::?\\d{2})?)\\s*$';

/**
 * Hour 24 after a date (`2020-01-01 24:00`): no datetime, as the literal parser and the pages' %H
 * (0-23) say; DuckDB's cast would read `24:00:00` as the next day's midnight.
 */
export const HOUR_24_PATTERN = '[0-9](T|\\s+)24:';

/**
 * A time of hours and minutes only, then a zone (`2019-01-22T03:54 +0330`, `2019-01-22 03:54Z`): the
 * datetime(...) literal reads it, as .NET's parser does, but the engines' ISO readers want seconds
 * before a zone. Groups: 1 the date and time, 2 the zone; written back as `$1:00$2`.
 */
export const MINUTES_ZONE_PATTERN =
  '^\\s*(\\d{4}-\\d{1,2}-\\d{1,2}[T ]\\d{1,2}:\\d{2})\\s*(Z|[+-]\\d{2}(?::?\\d{2})?)\\s*$';

/**
 * `12-02-2022`, `02/17/2016 08:40:01`: month, day, year (then a time), as .NET's invariant culture
 * orders them. The todatetime page prints `todatetime('12-02-2022') == datetime('12-02-2022')` as
 * true, and the parse page converts `02/17/2016 08:40:01` to 2016-02-17 08:40:01. Groups: 1 month,
 * 2 day, 3 year, 4 the time with the space or T before it (empty when absent).
 */
export const MONTH_FIRST_DATE_PATTERN =
  '^\\s*(\\d{1,2})[-/](\\d{1,2})[-/](\\d{4})((?:\\s+|T)\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,7})?)?)?\\s*$';

/**
 * A two-digit year below this is in the 2000s, else in the 1900s: .NET's two-digit-year window
 * (TwoDigitYearMax 2049). The pages print only 14 (2014); the window is not on a page.
 */
export const TWO_DIGIT_YEAR_PIVOT = 50;

/**
 * `datetime(2025, 6, 14)`: year, month and day separated by commas, as the startofweek page writes
 * its literals (and prints 2025-06-14 for them). Only literals are shown so; todatetime() of such
 * text is not on a page, so the SQL side does not read it.
 */
const COMMA_DATE_RE = /^\s*(\d{4})\s*,\s*(\d{1,2})\s*,\s*(\d{1,2})\s*$/;

const RFC_RE = new RegExp(RFC_DATETIME_PATTERN, 'i');
const GMT_RE = new RegExp(GMT_SUFFIX_PATTERN, 'i');
const MONTH_FIRST_RE = new RegExp(MONTH_FIRST_DATE_PATTERN);

/**
 * The text as `yyyy-mm-dd hh:mm:ss` when it is in an RFC 822 or RFC 850 form, as `yyyy-mm-dd` when
 * it is a month-first or comma-separated date, the text less a trailing ` GMT` when it ends so, else the text itself:
 * what the ISO reader takes next.
 */
export function normalizeDatetimeText(text: string): string {
  const comma = COMMA_DATE_RE.exec(text);
  if (comma) return `${comma[1]}-${comma[2]}-${comma[3]}`;
  const m = RFC_RE.exec(text);
  if (!m) return text.replace(MONTH_FIRST_RE, '$3-$1-$2$4').replace(GMT_RE, '$1');
  const [, day, month, year, hour, minute, second] = m;
  const yy = Number(year);
  const fullYear = year!.length === 2 ? yy + (yy < TWO_DIGIT_YEAR_PIVOT ? 2000 : 1900) : yy;
  const monthNumber = MONTH_ABBREVIATIONS.indexOf(month!.toLowerCase() as (typeof MONTH_ABBREVIATIONS)[number]) + 1;
  return `${fullYear}-${monthNumber}-${day} ${hour}:${minute}:${second || '00'}`;
}
