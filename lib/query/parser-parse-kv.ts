// parse-kv (parse-kv operator docs) read as the extend it stands for: one column per listed key,
// the value after the key's first occurrence, converted to the key's type. With pair_delimiter and
// kv_delimiter (one character each) a value runs to the next pair delimiter; without them any
// non-alphanumeric text separates keys and values; quote= adds values in quotes, escape= characters
// that quote the next one inside them; greedy=true runs a value to the next key's appearance
// (pair delimiter, a key, kv delimiter) or the end; regex= is parser-parse-kv-regex.ts. Leading and
// trailing spaces are dropped. Throws QueryError QUERY_SYNTAX for malformed text and
// QUERY_UNSUPPORTED for delimiters longer than one character.
import type { Expr, NamedExpr, Operator } from './ast';
import type { OperatorCursor } from './parser-operators';
import { regexKeyValues } from './parser-parse-kv-regex';
import { boolWord, type Span } from './tokens';

/** The conversion a key's declared type needs (a string stays as extracted). */
const CONVERSIONS: Readonly<Record<string, string | null>> = {
  string: null,
  long: 'tolong',
  int: 'toint',
  real: 'todouble',
  double: 'todouble',
  bool: 'tobool',
  boolean: 'tobool',
  datetime: 'todatetime',
  date: 'todatetime',
  dynamic: 'todynamic',
  guid: 'toguid',
  uniqueid: 'toguid',
  timespan: 'totimespan',
  time: 'totimespan',
  decimal: 'todecimal',
};

/** A character as a regex atom outside a class: regex syntax characters escaped. */
const atom = (ch: string): string => (/^[\\^$.*+?()[\]{}|/]$/.test(ch) ? `\\${ch}` : ch);
/** A character inside a class [...]: the characters special there escaped. */
const inClass = (ch: string): string => (/^[\\\]^[-]$/.test(ch) ? `\\${ch}` : ch);
const escaped = (text: string): string => [...text].map(atom).join('');

export function parseParseKv(p: OperatorCursor, start: number): Operator {
  const source = p.expression();
  p.expectIdent('as');
  p.expectOp('(');
  const keys: { name: string; type: string; span: Span }[] = [];
  do {
    const n = p.expectName('a key name');
    p.expectOp(':');
    const t = p.expectName('a type');
    if (!(t.name in CONVERSIONS)) throw p.errors.unsupported(`parse-kv does not support the type '${t.name}'`, t.span);
    keys.push({ name: n.name, type: t.name, span: { start: n.span.start, end: t.span.end } });
  } while (p.acceptOp(','));
  p.expectOp(')');
  const options = new Map<string, { value: string; span: Span }>();
  const quotes: string[] = [];
  const escapes: string[] = [];
  let greedy = false;
  let regex: { value: string; span: Span } | undefined;
  if (p.acceptIdent('with')) {
    p.expectOp('(');
    while (!p.peekOp(')')) {
      const o = p.expectName('a parse-kv option');
      p.expectOp('=');
      const v = p.next();
      const span = { start: o.span.start, end: v.span.end };
      if (o.name === 'greedy') {
        const value = boolWord(v);
        if (value === undefined) throw p.errors.syntax('greedy takes true or false', v.span);
        greedy = value;
        if (!p.acceptOp(',')) break;
        continue;
      }
      if (!['pair_delimiter', 'kv_delimiter', 'quote', 'escape', 'regex'].includes(o.name))
        throw p.errors.syntax(`unknown parse-kv option '${o.name}'`, o.span);
      if (v.kind !== 'string') throw p.errors.syntax(`${o.name} takes a string`, v.span);
      const value = v.value as string;
      if (o.name === 'regex') regex = { value, span: v.span };
      else if (o.name === 'escape') {
        if ([...value].length !== 1) throw p.errors.syntax('escape is one character', v.span);
        escapes.push(value);
      } else if (o.name === 'quote') {
        if (value.length < 1 || value.length > 2) throw p.errors.syntax('quote is one or two characters', v.span);
        quotes.push(value);
      } else {
        if ([...value].length !== 1)
          throw p.errors.unsupported(`${o.name} of other than one character is not supported`, v.span);
        options.set(o.name, { value, span });
      }
      if (!p.acceptOp(',')) break;
    }
    p.expectOp(')');
  }
  const pair = options.get('pair_delimiter');
  const kv = options.get('kv_delimiter');
  // Kusto.Language parses either one alone, but the page's syntax gives them together and does not
  // say what separates the pairs (or a key from its value) without the other: a guess could be wrong.
  if ((pair === undefined) !== (kv === undefined)) {
    const [given, missing] = pair ? ['pair_delimiter', 'kv_delimiter'] : ['kv_delimiter', 'pair_delimiter'];
    throw p.errors.unsupported(
      `parse-kv with ${given} alone is not supported: the parse-kv page gives pair_delimiter and kv_delimiter together and does not define what stands for ${missing} without it; write both, or neither for the delimiter-free form`,
      (pair ?? kv)!.span,
    );
  }
  if (regex && (options.size > 0 || quotes.length > 0 || escapes.length > 0 || greedy))
    throw p.errors.syntax('regex= goes alone: the regex finds the keys and the values', regex.span);
  if (greedy && pair === undefined)
    throw p.errors.syntax('greedy=true needs pair_delimiter and kv_delimiter', p.spanFrom(start));
  const span = p.spanFrom(start);
  const found = regex ? regexKeyValues(p.errors, regex.value, regex.span, source, keys) : undefined;
  const items: NamedExpr[] = keys.map((k, i) => {
    const pattern = keyPattern(k.name, { pair: pair?.value, kv: kv?.value, quotes, escapes, greedy });
    const extract = (group: number): Expr =>
      call('extract', [str(pattern, k.span), num(group, k.span), source], k.span);
    // An escape character stands for the character after it (inside quotes only).
    const unescaped = (e: Expr): Expr =>
      escapes.length === 0
        ? e
        : call('replace_regex', [e, str(`[${escapes.map(inClass).join('')}](.)`, k.span), str('\\1', k.span)], k.span);
    // Groups 1..quotes are the quoted forms, the last one the plain value: one of them matched.
    let value: Expr = found ? found[i]! : extract(quotes.length + 1);
    if (!found) for (let g = quotes.length; g >= 1; g--) value = call('strcat', [unescaped(extract(g)), value], k.span);
    const fn = CONVERSIONS[k.type];
    if (fn) value = call(fn, [value], k.span);
    return { name: k.name, nameSpan: k.span, expr: value, span: k.span };
  });
  return { kind: 'extend', items, span };
}

interface KvSyntax {
  readonly pair: string | undefined;
  readonly kv: string | undefined;
  readonly quotes: readonly string[];
  readonly escapes: readonly string[];
  readonly greedy: boolean;
}

/** The regex whose groups hold the key's value: quoted forms first, then the plain value. */
function keyPattern(key: string, { pair, kv, quotes, escapes, greedy }: KvSyntax): string {
  const pairs = quotes.map((q) => [atom(q[0]!), atom(q[1] ?? q[0]!), inClass(q[1] ?? q[0]!)] as const);
  const esc = escapes.map(inClass).join('');
  // With escapes, an escape character and the one after it stay inside the quotes.
  const quoted = pairs.map(([open, close, inside]) =>
    esc ? `${open}((?:[^${inside}${esc}]|[${esc}].)*)${close}` : `${open}([^${inside}]*)${close}`,
  );
  // A key may be quoted too ("event time"=...).
  const name = [escaped(key), ...pairs.map(([open, close]) => `${open}${escaped(key)}${close}`)].join('|');
  if (pair === undefined || kv === undefined) {
    // Any non-alphanumeric text separates: the value is the next run of letters and digits.
    const plain = '([\\p{L}\\p{N}_.\\-]*)';
    // A quote is found after the shortest separator (a greedy one would take the opening quote).
    const values = [...quoted.map((q) => `[^\\p{L}\\p{N}]*?${q}`), `[^\\p{L}\\p{N}]+${plain}`];
    return `(?:^|[^\\p{L}\\p{N}_])(?:${name})(?:${values.join('|')})`;
  }
  const P = atom(pair);
  const C = inClass(pair);
  if (greedy) {
    // Up to the next key's appearance (pair delimiter, a word, kv delimiter) or the end, spaces dropped.
    const next = `(?:\\s*${P}\\s*[^${C}${inClass(kv)}]+?\\s*${atom(kv)}|\\s*$)`;
    return `(?:^|${P})\\s*(?:${name})\\s*${atom(kv)}\\s*(?:${[...quoted.map((q) => `${q}${next}`), `(.*?)${next}`].join('|')})`;
  }
  // Words separated by spaces (none when the pair delimiter is a space): trailing spaces stay out.
  const plain = /\s/.test(pair) ? '(\\S*)' : `((?:[^${C}\\s]|\\s+[^${C}\\s])*)`;
  return `(?:^|${P})\\s*(?:${name})\\s*${atom(kv)}\\s*(?:${[...quoted, plain].join('|')})`;
}

const str = (value: string, span: Span): Expr => ({ kind: 'literal', type: 'string', value, span });
const num = (value: number, span: Span): Expr => ({ kind: 'literal', type: 'long', value: BigInt(value), span });
const call = (name: string, args: Expr[], span: Span): Expr => ({ kind: 'call', name, nameSpan: span, args, span });
