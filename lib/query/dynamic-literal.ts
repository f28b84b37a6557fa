// The JSON text of a dynamic literal (dynamicLiteralJson, below), with the scalar literals Kusto
// accepts inside one besides JSON ("an array of dynamic or other scalar literals",
// https://learn.microsoft.com/en-us/kusto/query/scalar-data-types/dynamic):
// `dynamic([1h, datetime(2020-01-01), guid(...), long(5), real(nan)])`. A dynamic value holds what
// JSON cannot as its text, as the page says and as pack_array() writes them here: a datetime with
// seven fractional digits, a timespan as [-][d.]hh:mm:ss[.fffffff], a guid in lower case, a real
// that is no JSON number as "NaN"/"Infinity"/"-Infinity". These values are text, so a tick (1tick,
// a seventh fractional digit) is kept exactly. A nested dynamic(...) is its own content (the scalar
// data types page: dynamic can store "nested dynamic values"); hexadecimal longs and the True/TRUE
// spellings of bools are read as outside a dynamic literal.
import { realJsonText } from './json-text';
import { formatTimespanTicks, inLongRange, MAX_INT, MIN_INT, parseDatetimeTicks, parseTimespanTicks } from './literals';

/** A scalar literal inside a dynamic literal that is not valid (a syntax error of the query). */
export class DynamicScalarError extends Error {}

/** `name(content)`: the content holds no parenthesis (a quoted guid or datetime may be quoted). */
const TYPED =
  /(datetime|date|timespan|time|guid|uuid|uniqueid|int|long|real|double|bool|boolean)\s*\(\s*([^()]*?)\s*\)/y;
/**
 * `1h`, `-1.5d`, `10ticks`: a number with a unit right after it. Never an exponent: 1e3 is a number,
 * and so is 1.5e-7, whose `e` a word boundary (before the sign) would otherwise end as a unit.
 */
const SHORT_TIMESPAN = /-?\d+(?:\.\d+)?(?![eE][+-]?\d)[a-z]+\b/y;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const NESTED = /dynamic\s*\(/y;
/** A hexadecimal long (`0x1F`), as the same literal outside a dynamic literal. */
const HEX = /(-?)0x([0-9a-f]+)\b/iy;
/** The bool spellings Kusto reads (as BOOL_WORDS in parser.ts): JSON has only the lower-case ones. */
const BOOL_SPELLINGS: ReadonlyMap<string, string> = new Map(
  ['true', 'True', 'TRUE', 'false', 'False', 'FALSE'].map((w) => [w, w.toLowerCase()]),
);

/** The index of the parenthesis closing the one at `open`, skipping quoted strings; -1 when none. */
function closingParen(raw: string, open: number): number {
  let depth = 0;
  for (let i = open; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '"' || ch === "'") {
      for (i++; i < raw.length && raw[i] !== ch; i++) if (raw[i] === '\\') i++;
    } else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

/** A scalar literal at `at` of a dynamic literal's text, as JSON; undefined when there is none. */
function scalarLiteralAt(raw: string, at: number): { json: string; end: number } | undefined {
  const prev = at > 0 ? raw[at - 1]! : ' ';
  if (/[A-Za-z0-9_.]/.test(prev)) return undefined;
  // A nested dynamic literal ("nested dynamic values", the scalar data types page) is its own content.
  NESTED.lastIndex = at;
  if (NESTED.exec(raw)) {
    const close = closingParen(raw, NESTED.lastIndex - 1);
    if (close < 0) return undefined;
    return { json: dynamicLiteralJson(raw.slice(NESTED.lastIndex, close).trim()), end: close + 1 };
  }
  TYPED.lastIndex = at;
  const typed = TYPED.exec(raw);
  if (typed) return { json: typedJson(typed[1]!, typed[2]!), end: TYPED.lastIndex };
  HEX.lastIndex = at;
  const hex = HEX.exec(raw);
  if (hex) {
    const value = (hex[1] ? -1n : 1n) * BigInt(`0x${hex[2]!}`);
    if (!inLongRange(value)) throw new DynamicScalarError(`long '${hex[0]}' out of range`);
    return { json: String(value), end: HEX.lastIndex };
  }
  SHORT_TIMESPAN.lastIndex = at;
  const short = SHORT_TIMESPAN.exec(raw);
  if (short) return { json: timespanJson(short[0]), end: SHORT_TIMESPAN.lastIndex };
  return undefined;
}

/** The end of the identifier at `at` (copied as it is: true, false, null, or what JSON then refuses). */
function wordEnd(raw: string, at: number): number {
  WORD.lastIndex = at;
  return WORD.exec(raw) ? WORD.lastIndex : at + 1;
}

/** @throws DynamicScalarError when the content is not a literal of the type (the caller reports the dynamic literal). */
function typedJson(type: string, content: string): string {
  const text = content.replace(/^(['"])(.*)\1$/, '$2');
  if (text === 'null') return 'null';
  switch (type) {
    case 'datetime':
    case 'date': {
      const ticks = parseDatetimeTicks(text);
      if (ticks === undefined) throw new DynamicScalarError(`invalid datetime '${text}'`);
      return JSON.stringify(datetimeText(ticks));
    }
    case 'timespan':
    case 'time':
      return timespanJson(text);
    case 'guid':
    case 'uuid':
    case 'uniqueid':
      if (!GUID.test(text)) throw new DynamicScalarError(`invalid guid '${text}'`);
      return JSON.stringify(text.toLowerCase());
    case 'int':
    case 'long': {
      // Decimal or hexadecimal (0x1F), signed, as the same literal outside a dynamic literal.
      const parts = /^([-+]?)(\d+|0x[0-9a-f]+)$/i.exec(text);
      if (!parts) throw new DynamicScalarError(`invalid ${type} '${text}'`);
      const value = (parts[1] === '-' ? -1n : 1n) * BigInt(parts[2]!);
      if (type === 'int' ? value < MIN_INT || value > MAX_INT : !inLongRange(value))
        throw new DynamicScalarError(`${type} '${text}' out of range`);
      return String(value);
    }
    case 'real':
    case 'double':
      return realJson(text);
    default: {
      const lower = text.toLowerCase();
      if (lower === 'true' || lower === 'false') return lower;
      throw new DynamicScalarError(`invalid bool '${text}'`);
    }
  }
}

function timespanJson(text: string): string {
  const ticks = parseTimespanTicks(text);
  if (ticks === undefined) throw new DynamicScalarError(`invalid timespan '${text}'`);
  return JSON.stringify(formatTimespanTicks(ticks));
}

function realJson(text: string): string {
  const lower = text.toLowerCase();
  if (lower === 'nan' || lower === '-nan' || lower === '+nan') return '"NaN"';
  if (lower === 'inf' || lower === '+inf') return '"Infinity"';
  if (lower === '-inf') return '"-Infinity"';
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new DynamicScalarError(`invalid real '${text}'`);
  // A real keeps its `.0` (real(2) is 2.0, not the long 2).
  return realJsonText(value);
}

/** ISO 8601 with seven fractional digits, as a datetime inside a dynamic value is written. */
function datetimeText(ticks: bigint): string {
  const perSecond = 10_000_000n;
  let seconds = ticks / perSecond;
  let fraction = ticks % perSecond;
  if (fraction < 0n) {
    fraction += perSecond;
    seconds -= 1n;
  }
  // Years 0001-9999 (the datetime range) are four digits in toISOString.
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 19)}.${String(fraction).padStart(7, '0')}Z`;
}

/**
 * The JSON text of a dynamic literal's content. Kusto also accepts single-quoted strings there
 * (`dynamic({'key1': 'abc'})`), rewritten as JSON strings, and other scalar literals (`1h`,
 * `datetime(...)`, `guid(...)`, `long(5)`: dynamic-literal.ts); the rest is left to JSON.parse.
 * @throws DynamicScalarError when a scalar literal in it is not valid.
 */
export function dynamicLiteralJson(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch !== '"' && ch !== "'") {
      const code = ch.charCodeAt(0);
      const scalar =
        (code >= 48 && code <= 57) || ch === '-' || /[a-z]/i.test(ch) ? scalarLiteralAt(raw, i) : undefined;
      if (scalar) {
        out += scalar.json;
        i = scalar.end - 1;
      } else if (/[A-Za-z_]/.test(ch)) {
        // A whole word (true, null, ...), so that no literal is read from its middle.
        const end = wordEnd(raw, i);
        const word = raw.slice(i, end);
        out += BOOL_SPELLINGS.get(word) ?? word;
        i = end - 1;
      } else out += ch;
      continue;
    }
    let text = '';
    let j = i + 1;
    for (; j < raw.length && raw[j] !== ch; j++) {
      if (raw[j] === '\\' && j + 1 < raw.length) {
        text += raw[j]! + raw[j + 1]!;
        j++;
      } else text += raw[j] === '"' ? '\\"' : raw[j];
    }
    // A single-quoted string may hold \' for a quote, which JSON writes without the backslash.
    out += `"${ch === "'" ? text.replace(/\\'/g, "'") : text}"`;
    i = j;
  }
  return out;
}
