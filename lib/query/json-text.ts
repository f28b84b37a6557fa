// The text of a dynamic(...) literal as stored: the JSON with the whitespace outside strings
// removed, a real number written as its value and a string's escapes as the engine writes them
// (below), everything else as written.
// JSON.stringify(JSON.parse(...)) would turn 111.0 into 111, and Kusto keeps a real apart from a
// long inside dynamic values (series_fill_linear rounds only arrays of integers;
// https://learn.microsoft.com/en-us/kusto/query/series-fill-linear-function).

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * A real (a number with a fraction or an exponent) as its double's shortest text, kept a real by a
 * `.0`: 20.50 is 20.5, 1E5 is 100000.0, 1e-7 is 1e-7, as parse_json() and stored values write them
 * (a dynamic value holds the value, not the text, so tostring(dynamic(20.50)) is "20.5"): one text
 * per value in the engine, whichever wrote it. tostring() writes .NET's text from it (1E-07: the
 * dialect's dynToString). One beyond the double's range is the string an infinite real is inside a
 * dynamic value. Integers stay as written, exact beyond 2^53.
 */
function numberText(token: string): string {
  return /[.eE]/.test(token) ? realJsonText(Number(token)) : token;
}

/** A real as a dynamic value's JSON text holds it (numberText, above). */
export function realJsonText(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? '"NaN"' : value > 0 ? '"Infinity"' : '"-Infinity"';
  if (Object.is(value, -0)) return '-0.0';
  const text = String(value).replace('e+', 'e');
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** @throws SyntaxError when `raw` is not JSON. */
export function minifiedJson(raw: string): string {
  JSON.parse(raw);
  return mapJsonTokens(raw, numberText, stringText);
}

/**
 * A string token (quotes included) as the engine's JSON writer (DuckDB's json(), as parse_json
 * writes it) holds it: escapes only for the quote, the backslash and control characters (\b \f \n
 * \r \t, else \u00XX in upper case), anything else as the character itself (\u00e9 is é, \/ is /),
 * so that dynamic(["\u00e9"]) and parse_json('["\\u00e9"]') are one value with one text.
 */
function stringText(token: string): string {
  if (!token.includes('\\')) return token;
  const written = JSON.stringify(JSON.parse(token) as string);
  return written.replace(/\\(u00[0-9a-f]{2}|.)/g, (escape: string, code: string) =>
    code.startsWith('u00') ? `\\${code.toUpperCase().replace('U', 'u')}` : escape,
  );
}

/**
 * JSON text with the whitespace outside strings removed, each number token replaced by
 * `number(token)` and each string token (keys too, quotes included) by `string(token)`. `raw` must be JSON.
 */
function mapJsonTokens(raw: string, number: (token: string) => string, string: (token: string) => string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '"') {
      let end = i + 1;
      while (raw[end] !== '"') end += raw[end] === '\\' ? 2 : 1;
      out += string(raw.slice(i, end + 1));
      i = end;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(raw)![0];
      out += number(token);
      i += token.length - 1;
    } else if (ch !== ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') out += ch;
  }
  return out;
}

/** An integer token beyond 2^53 as a JSON string of its digits; any other token as it is. */
function unsafeIntegerAsText(token: string): string {
  return /[.eE]/.test(token) || Number.isSafeInteger(Number(token)) ? token : `"${token}"`;
}

/**
 * A dynamic value's JSON text as the JS value of the answer. An integer beyond 2^53 (a long held
 * in a dynamic value, exact in the engine's JSON text) becomes the string of its digits, as a long
 * column's value does: JSON.parse would round 9007199254740993 to ...992.
 * @throws SyntaxError when `text` is not JSON.
 */
export function parseDynamicText(text: string): unknown {
  let json = text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (!/NaN|Infinity/.test(text)) throw error;
    json = strictJson(text);
    value = JSON.parse(json);
  }
  // Sixteen digits in a row are needed for an integer beyond 2^53 (9007199254740993).
  return /\d{16}/.test(json) ? JSON.parse(mapJsonTokens(json, unsafeIntegerAsText, (token) => token)) : value;
}

/**
 * The engine's JSON text with a bare NaN, Infinity or -Infinity (DuckDB's JSON reads them:
 * parse_json('[NaN, 1]')) written as the string a real NaN or infinity is in a dynamic value
 * (realJsonText), which JSON.parse reads: the answer showed the whole value as its text "[NaN,1]".
 */
function strictJson(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end;
      continue;
    }
    const word = /^-?Infinity|^NaN/.exec(text.slice(i, i + 9))?.[0];
    out += word === undefined ? ch : `"${word}"`;
    i += (word?.length ?? 1) - 1;
  }
  return out;
}
