// Hand-written lexer: one pass over the text, every token with its span. Every step consumes input
// or throws a positioned QueryError: QUERY_SYNTAX for an unterminated string, a bad number or an
// unknown character; the limit codes of limits.ts for a name too long, brackets nested too deep
// inside a typed literal, or a spent compile budget.
import { compileContext, checkNameLength, type CompileContext } from './limits';
import { HYPHENATED_KEYWORDS, NEGATABLE, type Token, type TokenKind } from './tokens';
import { MAX_LONG, NANOSECOND_UNITS, scaleDecimal, TIMESPAN_UNITS } from './literals';
import { clip, type ErrorFactory, type QueryError } from './errors';

// `date` and `time` are Kusto's other spellings of datetime and timespan (their data type pages).
const TYPED_LITERALS: ReadonlySet<string> = new Set(['datetime', 'date', 'time', 'timespan', 'dynamic', 'guid']);
const TYPED_LITERAL_TYPES: ReadonlyMap<string, string> = new Map([
  ['time', 'timespan'],
  ['date', 'datetime'],
]);
const THREE_CHAR_OPS = ['!in~'];
const TWO_CHAR_OPS = ['==', '!=', '<>', '<=', '>=', '=~', '!~', '=>', '..'];
const ONE_CHAR_OPS = '|()[]{},;.=<>+-*/%:~@';
/** First characters of the three- and two-character operators. */
const LONGER_OP_STARTS = '!=<>.';

// `$` starts names that Kusto operators generate ($left, $right); it is never part of a name.
// Character classes by comparison, not by regex: they run once per character of the query.
// `c` is one UTF-16 unit, or '' past the end (no class holds it).
const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isIdentStart = (c: string): boolean => isLetter(c) || c === '_' || c === '$';
const isIdentPart = (c: string): boolean => isLetter(c) || isDigit(c) || c === '_';
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isHexDigit = (c: string): boolean => isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');

/** The operator of `ops` that starts at `pos`, if any (a loop: no closure per token). */
function operatorAt(ops: readonly string[], source: string, pos: number): string | undefined {
  for (const op of ops) if (source.startsWith(op, pos)) return op;
  return undefined;
}

export function tokenize(source: string, ctx: CompileContext = compileContext(source)): Token[] {
  const errors = ctx.errors;
  const tokens: Token[] = [];
  let pos = 0;
  let last = -1;

  while (pos < source.length) {
    // Every pass of this loop consumes at least one character: a pass that would not is a bug, and
    // a positioned error is the safe answer to it (an endless loop here once took the service down).
    if (pos === last) throw errors.syntax(`unexpected character ${describeChar(source, pos)}`, charSpan(source, pos));
    last = pos;
    ctx.budget.tick(pos);
    const c = charAt(source, pos);
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      pos++;
      continue;
    }
    if (c === '/' && charAt(source, pos + 1) === '/') {
      while (pos < source.length && charAt(source, pos) !== '\n') pos++;
      continue;
    }
    // KQL has only // comments (comment docs); `/*` is never valid KQL either way, so it gets its own message.
    if (c === '/' && charAt(source, pos + 1) === '*')
      throw errors.syntax('KQL has no /* */ comments; comment with // to the end of the line', charSpan(source, pos));
    const start = pos;
    if (c === '`' && source.startsWith('```', pos)) {
      const close = source.indexOf('```', pos + 3);
      if (close < 0) throw errors.syntax('unterminated multi-line string literal', { start, end: source.length });
      pos = close + 3;
      pushToken(tokens, source, pos, 'string', start, { value: source.slice(start + 3, close) });
      continue;
    }
    if (c === '"' || c === "'") {
      pos = readQuoted(source, pos, errors);
      pushToken(tokens, source, pos, 'string', start, { value: decodeEscapes(source, start + 1, pos - 1, errors) });
      continue;
    }
    // h@"..." (or H@'...'): an obfuscated verbatim string (string data type docs).
    const obfuscatedVerbatim = (c === 'h' || c === 'H') && charAt(source, pos + 1) === '@';
    if (obfuscatedVerbatim && (charAt(source, pos + 2) === '"' || charAt(source, pos + 2) === "'")) {
      pos += 2;
      const quote = charAt(source, pos);
      pos = readVerbatim(source, pos, errors);
      pushToken(tokens, source, pos, 'string', start, {
        value: source
          .slice(start + 3, pos - 1)
          .split(quote + quote)
          .join(quote),
      });
      continue;
    }
    if ((c === '@' || c === 'h' || c === 'H') && (charAt(source, pos + 1) === '"' || charAt(source, pos + 1) === "'")) {
      const verbatim = c === '@';
      pos++;
      const quote = charAt(source, pos);
      if (verbatim) {
        pos = readVerbatim(source, pos, errors);
        pushToken(tokens, source, pos, 'string', start, {
          value: source
            .slice(start + 2, pos - 1)
            .split(quote + quote)
            .join(quote),
        });
      } else {
        pos = readQuoted(source, pos, errors);
        pushToken(tokens, source, pos, 'string', start, { value: decodeEscapes(source, start + 2, pos - 1, errors) });
      }
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(charAt(source, pos + 1)))) {
      pos = readNumber(source, start, tokens, errors);
      continue;
    }
    if (isIdentStart(c)) {
      pos++; // the first character, `$` included
      while (isIdentPart(charAt(source, pos))) pos++;
      if (pos === start + 1 && c === '$')
        throw errors.syntax("'$' must be followed by a name, as in $left", { start, end: pos });
      let word = source.slice(start, pos);
      // project-away, mv-expand ...: a hyphen directly between two words of a known operator name.
      // Up to three words: graph-to-table, graph-shortest-paths.
      for (
        let end = pos, words = 1;
        words < 3 && charAt(source, end) === '-' && isIdentStart(charAt(source, end + 1));
        words++
      ) {
        end++;
        while (isIdentPart(charAt(source, end))) end++;
        const joined = source.slice(start, end);
        if (HYPHENATED_KEYWORDS.has(joined)) {
          pos = end;
          word = joined;
        }
      }
      checkNameLength(ctx, word, { start, end: pos });
      if (word === 'in' && charAt(source, pos) === '~') {
        pos++;
        pushToken(tokens, source, pos, 'op', start);
        continue;
      }
      if (TYPED_LITERALS.has(word)) {
        let look = pos;
        while (/\s/.test(charAt(source, look))) look++;
        if (charAt(source, look) === '(') {
          const close = findClosingParen(source, look, ctx);
          pos = close + 1;
          pushToken(tokens, source, pos, 'typedLiteral', start, {
            typeName: TYPED_LITERAL_TYPES.get(word) ?? word,
            value: source.slice(look + 1, close).trim(),
          });
          continue;
        }
      }
      pushToken(tokens, source, pos, 'ident', start);
      continue;
    }
    if (c === '!' && isIdentStart(charAt(source, pos + 1))) {
      let end = pos + 1;
      while (isIdentPart(charAt(source, end))) end++;
      const word = source.slice(pos + 1, end);
      if (NEGATABLE.has(word)) {
        pos = end;
        if (word === 'in' && charAt(source, pos) === '~') pos++;
        pushToken(tokens, source, pos, 'op', start);
        continue;
      }
    }
    // Most operator characters (`|`, `(`, `,` ...) start no longer operator: no search for them.
    const longer = LONGER_OP_STARTS.includes(c);
    const three = longer ? operatorAt(THREE_CHAR_OPS, source, pos) : undefined;
    const two = longer && !three ? operatorAt(TWO_CHAR_OPS, source, pos) : undefined;
    if (three) {
      pos += 3;
    } else if (two) {
      pos += 2;
    } else if (ONE_CHAR_OPS.includes(c)) {
      pos += 1;
    } else {
      throw errors.syntax(`unexpected character ${describeChar(source, start)}`, charSpan(source, start));
    }
    pushToken(tokens, source, pos, 'op', start);
  }
  tokens.push({ kind: 'eof', text: '', span: { start: source.length, end: source.length } });
  return tokens;
}

/** The character at `i`, or '' past the end. */
function charAt(source: string, i: number): string {
  return source[i] ?? '';
}

/**
 * Appends the token source[start, end). Module functions rather than closures in tokenize(): a
 * bundle built with keepNames names each closure anew on every call.
 */
function pushToken(
  tokens: Token[],
  source: string,
  end: number,
  kind: TokenKind,
  start: number,
  extra?: Partial<Token>,
): void {
  const text = source.slice(start, end);
  const span = { start, end };
  // Literals, not a spread of `extra`: a spread copies through the runtime, once per token. The
  // keys and their order are the spread's.
  if (extra === undefined) tokens.push({ kind, text, span });
  else if (extra.typeName === undefined) tokens.push({ kind, text, span, value: extra.value });
  else tokens.push({ kind, text, span, typeName: extra.typeName, value: extra.value });
}

/** Reads the number (or timespan) at `start` into `tokens`; returns the offset after it. */
function readNumber(source: string, start: number, tokens: Token[], errors: ErrorFactory): number {
  let pos = start;
  if (charAt(source, pos) === '0' && (charAt(source, pos + 1) === 'x' || charAt(source, pos + 1) === 'X')) {
    pos += 2;
    while (isHexDigit(charAt(source, pos))) pos++;
    if (pos === start + 2)
      throw errors.syntax('a hexadecimal literal needs at least one digit after 0x', { start, end: pos });
    if (isIdentPart(charAt(source, pos))) throw notANumber(source, start, errors, 'a hexadecimal literal has no unit');
    const value = BigInt(source.slice(start, pos));
    if (value > MAX_LONG)
      throw errors.syntax('the hexadecimal literal is out of the range of long', { start, end: pos });
    pushToken(tokens, source, pos, 'long', start, { value });
    return pos;
  }
  // Kusto.Language reads no number from `.5` (nor `.5h`): a digit must come first, except in the
  // literal forms real(.5), double(-.5), decimal(.5e3), whose text is read as .NET reads a number.
  if (charAt(source, pos) === '.' && !inRealLiteral(tokens))
    throw notANumber(source, start, errors, 'write a digit before the decimal point');
  while (isDigit(charAt(source, pos))) pos++;
  let real = false;
  let fractionDigits = 0;
  if (charAt(source, pos) === '.' && charAt(source, pos + 1) !== '.') {
    real = true;
    const point = ++pos;
    while (isDigit(charAt(source, pos))) pos++;
    fractionDigits = pos - point;
  }
  const exponentAt = pos;
  if (
    (charAt(source, pos) === 'e' || charAt(source, pos) === 'E') &&
    (isDigit(charAt(source, pos + 1)) ||
      ((charAt(source, pos + 1) === '+' || charAt(source, pos + 1) === '-') && isDigit(charAt(source, pos + 2))))
  ) {
    real = true;
    pos += 2;
    while (isDigit(charAt(source, pos))) pos++;
  }
  const numberText = source.slice(start, pos);
  if (isIdentStart(charAt(source, pos))) {
    let end = pos;
    while (isIdentPart(charAt(source, end))) end++;
    const unit = source.slice(pos, end);
    const nanos = NANOSECOND_UNITS.has(unit);
    const ticksPerUnit = nanos ? 1n : TIMESPAN_UNITS.get(unit);
    if (ticksPerUnit === undefined) {
      // As Kusto.Language lexes it: digits run into a word that is not a timespan (the series_fir
      // page's `5h_MovingAvg=...`) are one name; a fraction before the word has no such reading.
      // The name is made of name characters only: `1e-5x` is `1e`, `-`, then the name `5x`.
      if (!numberText.includes('.')) {
        let nameEnd = start;
        while (isIdentPart(charAt(source, nameEnd))) nameEnd++;
        pushToken(tokens, source, nameEnd, 'ident', start);
        return nameEnd;
      }
      throw errors.syntax(`unknown timespan unit '${clip(unit)}'`, { start, end });
    }
    // As Kusto.Language: `1e5h` is no timespan (its lexer makes one unknown name of it), nor `1.h`
    // (the real `1.`, then the name `h`).
    if (exponentAt < pos)
      throw errors.syntax(
        `'${clip(source.slice(start, end))}' is not a timespan: a timespan literal takes no exponent`,
        {
          start,
          end,
        },
      );
    if (real && fractionDigits === 0)
      throw errors.syntax(
        `'${clip(source.slice(start, end))}' is not a timespan: write a digit after the decimal point`,
        { start, end },
      );
    pos = end;
    const scaled = scaleTicks(numberText, ticksPerUnit);
    const ticks = nanos && scaled !== undefined ? scaled / 100n : scaled;
    // Kusto's timespan is a 64-bit count of ticks: a literal beyond it cannot exist.
    if (ticks === undefined || ticks > MAX_LONG)
      throw errors.syntax('the timespan literal is out of range (at most 10675199 days)', { start, end });
    pushToken(tokens, source, pos, 'timespan', start, { value: ticks });
    return pos;
  }
  // Digits beyond a long are a number only in real(...), double(...) or decimal(...), as Kusto.Language
  // reads them (`real(23058430092136940000)`, the answer of 9223372036854775807 * -2.5 written back).
  const beyondLong = !real && numberText.length > 19 && numberText.replace(/^0+(?=\d)/, '').length > 19;
  if (real || (beyondLong && inRealLiteral(tokens)))
    pushToken(tokens, source, pos, 'real', start, { value: Number(numberText) });
  // 2^63 itself is allowed here: the parser accepts it only as the operand of a unary minus.
  else if (beyondLong) throw errors.syntax('the integer literal is out of the range of long', { start, end: pos });
  else pushToken(tokens, source, pos, 'long', start, { value: BigInt(numberText) });
  return pos;
}

const REAL_LITERALS: ReadonlySet<string> = new Set(['real', 'double', 'decimal']);

/** Whether the tokens so far end in `real(`, `double(` or `decimal(`, with a sign after it or not. */
function inRealLiteral(tokens: readonly Token[]): boolean {
  let at = tokens.length - 1;
  if (tokens[at]?.kind === 'op' && (tokens[at]!.text === '-' || tokens[at]!.text === '+')) at--;
  const open = tokens[at];
  const name = tokens[at - 1];
  return open?.kind === 'op' && open.text === '(' && name?.kind === 'ident' && REAL_LITERALS.has(name.text);
}

/** The syntax error for the number-like word at `start` (`.5h`, `0x10h`), with a hint. */
function notANumber(source: string, start: number, errors: ErrorFactory, hint: string): QueryError {
  let end = start + 1;
  while (isIdentPart(charAt(source, end))) end++;
  return errors.syntax(`'${clip(source.slice(start, end))}' is not a number: ${hint}`, { start, end });
}

/** Exact ticks for "1.5" x ticksPerUnit, truncated toward zero at tick precision; undefined beyond 64 bits. */
function scaleTicks(numberText: string, ticksPerUnit: bigint): bigint | undefined {
  // The usual `5m`, `1h`: digits only, exact without the fraction handling below.
  if (numberText.length <= 20 && isDigitsOnly(numberText)) return BigInt(numberText) * ticksPerUnit;
  // More integer digits than any 64-bit tick count has, whatever the unit: not worth a big-number parse.
  if (numberText.split('.')[0]!.replace(/^0+/, '').length > 20) return undefined;
  return scaleDecimal(numberText, ticksPerUnit);
}

function isDigitsOnly(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** The character at `pos` for a message: quoted, or its code point when it is not printable. */
function describeChar(source: string, pos: number): string {
  const code = source.codePointAt(pos) ?? 0;
  return code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff)
    ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
    : `'${String.fromCodePoint(code)}'`;
}

/** The span of the character (one code point) at `pos`. */
function charSpan(source: string, pos: number): { start: number; end: number } {
  const code = source.codePointAt(pos) ?? 0;
  return { start: pos, end: Math.min(source.length, pos + (code > 0xffff ? 2 : 1)) };
}

function readQuoted(source: string, pos: number, errors: ErrorFactory): number {
  const quote = source[pos];
  const start = pos;
  pos++;
  while (pos < source.length) {
    const c = source[pos];
    if (c === '\\') {
      pos += 2;
      continue;
    }
    if (c === '\n') break;
    if (c === quote) return pos + 1;
    pos++;
  }
  throw errors.syntax('unterminated string literal', { start, end: Math.min(pos, source.length) });
}

function readVerbatim(source: string, pos: number, errors: ErrorFactory): number {
  const quote = source[pos];
  const start = pos - 1;
  pos++;
  while (pos < source.length) {
    if (source[pos] === quote) {
      if (source[pos + 1] === quote) {
        pos += 2;
        continue;
      }
      return pos + 1;
    }
    if (source[pos] === '\n') break;
    pos++;
  }
  throw errors.syntax('unterminated string literal', { start, end: Math.min(pos, source.length) });
}

// The escapes Kusto's lexer reads in a quoted string (Kusto.Language's TokenParser): C#'s set,
// \xHH, \uHHHH, \UHHHHHHHH and octal codes of one to three digits (the first of three at most 3).
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};
const HEX_ESCAPE_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const isOctal = (c: string): boolean => c >= '0' && c <= '7';

/**
 * The text of a quoted string's body, `source[from, to)`, its escapes decoded.
 * @throws QueryError QUERY_SYNTAX at a backslash that starts no escape (`"\d"`, `"\."`, a `\x`
 * short of its digits): Kusto.Language refuses these, and the string data type page names only the
 * escapes above, so reading `"\d+"` as `d+` would answer where Kusto refuses.
 */
function decodeEscapes(source: string, from: number, to: number, errors: ErrorFactory): string {
  const raw = source.slice(from, to);
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = raw[i + 1] ?? '';
    const hexDigits = HEX_ESCAPE_DIGITS[next];
    if (hexDigits !== undefined) {
      const hex = raw.slice(i + 2, i + 2 + hexDigits);
      if (hex.length !== hexDigits || !/^[0-9A-Fa-f]+$/.test(hex))
        throw badEscape(errors, source, from + i, `needs ${hexDigits} hexadecimal digits`);
      const code = parseInt(hex, 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      i += 1 + hexDigits;
      continue;
    }
    if (isOctal(next)) {
      let len = 1;
      if (isOctal(raw[i + 2] ?? '')) len = isOctal(raw[i + 3] ?? '') && next <= '3' ? 3 : 2;
      out += String.fromCharCode(parseInt(raw.slice(i + 1, i + 1 + len), 8));
      i += len;
      continue;
    }
    const simple = Object.hasOwn(SIMPLE_ESCAPES, next) ? SIMPLE_ESCAPES[next] : undefined;
    if (simple === undefined) throw badEscape(errors, source, from + i, 'is not an escape of a quoted string');
    out += simple;
    i++;
  }
  return out;
}

function badEscape(errors: ErrorFactory, source: string, at: number, why: string): QueryError {
  const span = { start: at, end: charSpan(source, at + 1).end };
  return errors.syntax(
    `'${source.slice(span.start, span.end)}' ${why}: write '\\\\' for a backslash, or a verbatim string (@"...") where backslashes stand for themselves`,
    span,
  );
}

/**
 * Offset of the `)` matching the `(` at `open`, skipping nested brackets and quoted strings.
 * @throws QueryError QUERY_TOO_DEEP when brackets nest deeper than the limit (dynamic([[[...]]])).
 */
function findClosingParen(source: string, open: number, ctx: CompileContext): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'") {
      i = readQuoted(source, i, ctx.errors) - 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      depth++;
      // The literal's own parenthesis is not nesting; what is inside it is.
      if (depth - 1 > ctx.limits.maxDepth)
        ctx.exceeded('QUERY_TOO_DEEP', `brackets nested ${depth - 1} deep in the literal`, ctx.limits.maxDepth, {
          start: i,
          end: i + 1,
        });
    } else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  throw ctx.errors.syntax("missing ')'", { start: open, end: source.length });
}
