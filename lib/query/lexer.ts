// Hand-written lexer: one pass over the text, every token with its span. Throws QueryError (QUERY_SYNTAX)
// for an unterminated string, a bad number or an unknown character.
import { ErrorFactory } from './errors';
import { HYPHENATED_KEYWORDS, NEGATABLE, type Token, type TokenKind } from './tokens';
import { TIMESPAN_UNITS } from './literals';

const TYPED_LITERALS: ReadonlySet<string> = new Set(['datetime', 'time', 'timespan', 'dynamic', 'guid']);
const THREE_CHAR_OPS = ['!in~'];
const TWO_CHAR_OPS = ['==', '!=', '<>', '<=', '>=', '=~', '!~', '=>', '..'];
const ONE_CHAR_OPS = '|()[]{},;.=<>+-*/%:~@';

const isIdentStart = (c: string): boolean => /[A-Za-z_$]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

export function tokenize(source: string): Token[] {
  const errors = new ErrorFactory(source);
  const tokens: Token[] = [];
  let pos = 0;
  const at = (i: number): string => source[i] ?? '';
  const push = (kind: TokenKind, start: number, extra: Partial<Token> = {}): void => {
    tokens.push({ kind, text: source.slice(start, pos), span: { start, end: pos }, ...extra });
  };

  while (pos < source.length) {
    const c = at(pos);
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      pos++;
      continue;
    }
    if (c === '/' && at(pos + 1) === '/') {
      while (pos < source.length && at(pos) !== '\n') pos++;
      continue;
    }
    const start = pos;
    if (c === '`' && source.startsWith('```', pos)) {
      const close = source.indexOf('```', pos + 3);
      if (close < 0) throw errors.syntax('unterminated multi-line string literal', { start, end: source.length });
      pos = close + 3;
      push('string', start, { value: source.slice(start + 3, close) });
      continue;
    }
    if (c === '"' || c === "'") {
      pos = readQuoted(source, pos, errors);
      push('string', start, { value: decodeEscapes(source.slice(start + 1, pos - 1)) });
      continue;
    }
    if ((c === '@' || c === 'h' || c === 'H') && (at(pos + 1) === '"' || at(pos + 1) === "'")) {
      const verbatim = c === '@';
      pos++;
      const quote = at(pos);
      if (verbatim) {
        pos = readVerbatim(source, pos, errors);
        push('string', start, { value: source.slice(start + 2, pos - 1).split(quote + quote).join(quote) });
      } else {
        pos = readQuoted(source, pos, errors);
        push('string', start, { value: decodeEscapes(source.slice(start + 2, pos - 1)) });
      }
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(at(pos + 1)))) {
      readNumber(start);
      continue;
    }
    if (isIdentStart(c)) {
      while (isIdentPart(at(pos))) pos++;
      let word = source.slice(start, pos);
      // project-away, mv-expand ...: a hyphen directly between two words of a known operator name.
      if (at(pos) === '-' && isIdentStart(at(pos + 1))) {
        let end = pos + 1;
        while (isIdentPart(at(end))) end++;
        const joined = source.slice(start, end);
        if (HYPHENATED_KEYWORDS.has(joined)) {
          pos = end;
          word = joined;
        }
      }
      if (word === 'in' && at(pos) === '~') {
        pos++;
        push('op', start);
        continue;
      }
      if (TYPED_LITERALS.has(word)) {
        let look = pos;
        while (/\s/.test(at(look))) look++;
        if (at(look) === '(') {
          const close = findClosingParen(source, look, errors);
          pos = close + 1;
          push('typedLiteral', start, { typeName: word === 'time' ? 'timespan' : word, value: source.slice(look + 1, close).trim() });
          continue;
        }
      }
      push('ident', start);
      continue;
    }
    if (c === '!' && isIdentStart(at(pos + 1))) {
      let end = pos + 1;
      while (isIdentPart(at(end))) end++;
      const word = source.slice(pos + 1, end);
      if (NEGATABLE.has(word)) {
        pos = end;
        if (word === 'in' && at(pos) === '~') pos++;
        push('op', start);
        continue;
      }
    }
    const three = THREE_CHAR_OPS.find((op) => source.startsWith(op, pos));
    const two = TWO_CHAR_OPS.find((op) => source.startsWith(op, pos));
    if (three) {
      pos += 3;
    } else if (two) {
      pos += 2;
    } else if (ONE_CHAR_OPS.includes(c)) {
      pos += 1;
    } else {
      throw errors.syntax(`unexpected character '${c}'`, { start, end: start + 1 });
    }
    push('op', start);
  }
  tokens.push({ kind: 'eof', text: '', span: { start: source.length, end: source.length } });
  return tokens;

  function readNumber(start: number): void {
    if (at(pos) === '0' && (at(pos + 1) === 'x' || at(pos + 1) === 'X')) {
      pos += 2;
      while (/[0-9A-Fa-f]/.test(at(pos))) pos++;
      push('long', start, { value: BigInt(source.slice(start, pos)) });
      return;
    }
    while (isDigit(at(pos))) pos++;
    let real = false;
    if (at(pos) === '.' && at(pos + 1) !== '.') {
      real = true;
      pos++;
      while (isDigit(at(pos))) pos++;
    }
    if ((at(pos) === 'e' || at(pos) === 'E') && (isDigit(at(pos + 1)) || ((at(pos + 1) === '+' || at(pos + 1) === '-') && isDigit(at(pos + 2))))) {
      real = true;
      pos += 2;
      while (isDigit(at(pos))) pos++;
    }
    const numberText = source.slice(start, pos);
    if (isIdentStart(at(pos))) {
      let end = pos;
      while (isIdentPart(at(end))) end++;
      const unit = source.slice(pos, end);
      const ticksPerUnit = TIMESPAN_UNITS.get(unit);
      if (ticksPerUnit === undefined) {
        throw errors.syntax(`unknown timespan unit '${unit}'`, { start, end });
      }
      pos = end;
      push('timespan', start, { value: scaleTicks(numberText, ticksPerUnit) });
      return;
    }
    if (real) push('real', start, { value: Number(numberText) });
    else push('long', start, { value: BigInt(numberText) });
  }
}

/** Exact ticks for "1.5" x ticksPerUnit, truncated toward zero at tick precision. */
function scaleTicks(numberText: string, ticksPerUnit: bigint): bigint {
  const [intPart = '0', fracPart = ''] = numberText.toLowerCase().split('e')[0]!.split('.');
  if (numberText.toLowerCase().includes('e')) return BigInt(Math.trunc(Number(numberText) * Number(ticksPerUnit)));
  const scale = 10n ** BigInt(fracPart.length);
  return (BigInt(intPart || '0') * scale + BigInt(fracPart || '0')) * ticksPerUnit / scale;
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
  throw errors.syntax('unterminated string literal', { start, end: pos });
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
  throw errors.syntax('unterminated string literal', { start, end: pos });
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'" };

function decodeEscapes(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = raw[i + 1] ?? '';
    if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(raw.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(raw.slice(i + 2, i + 6), 16));
      i += 5;
      continue;
    }
    out += SIMPLE_ESCAPES[next] ?? next;
    i++;
  }
  return out;
}

/** Offset of the `)` matching the `(` at `open`, skipping nested brackets and quoted strings. */
function findClosingParen(source: string, open: number, errors: ErrorFactory): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'") {
      i = readQuoted(source, i, errors) - 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  throw errors.syntax("missing ')'", { start: open, end: source.length });
}
