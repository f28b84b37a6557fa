// parse-kv (parse-kv operator docs) read as the extend it stands for: one column per listed key,
// the value after the key's first occurrence, converted to the key's type. With pair_delimiter and
// kv_delimiter (one character each) a value runs to the next pair delimiter; without them any
// non-alphanumeric text separates keys and values; quote= adds values in quotes. Leading and
// trailing spaces are dropped. Throws QueryError QUERY_SYNTAX for malformed text and
// QUERY_UNSUPPORTED for greedy=true, escape=, regex= and delimiters longer than one character.
import type { Expr, NamedExpr, Operator } from './ast';
import type { OperatorCursor } from './parser-operators';
import type { Span } from './tokens';

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
  if (p.acceptIdent('with')) {
    p.expectOp('(');
    while (!p.peekOp(')')) {
      const o = p.expectName('a parse-kv option');
      p.expectOp('=');
      const v = p.next();
      const span = { start: o.span.start, end: v.span.end };
      if (o.name === 'greedy' || o.name === 'escape' || o.name === 'regex')
        throw p.errors.unsupported(`the parse-kv option ${o.name}= is not supported`, span);
      if (o.name !== 'pair_delimiter' && o.name !== 'kv_delimiter' && o.name !== 'quote')
        throw p.errors.syntax(`unknown parse-kv option '${o.name}'`, o.span);
      if (v.kind !== 'string') throw p.errors.syntax(`${o.name} takes a string`, v.span);
      const value = v.value as string;
      if (o.name === 'quote') {
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
  if ((pair === undefined) !== (kv === undefined))
    throw p.errors.syntax('pair_delimiter and kv_delimiter go together', (pair ?? kv)!.span);
  const span = p.spanFrom(start);
  const items: NamedExpr[] = keys.map((k) => {
    const pattern = keyPattern(k.name, pair?.value, kv?.value, quotes);
    const extract = (group: number): Expr =>
      call('extract', [str(pattern, k.span), num(group, k.span), source], k.span);
    let value: Expr = extract(1);
    for (let g = 0; g < quotes.length; g++) value = call('strcat', [value, extract(g + 2)], k.span);
    const fn = CONVERSIONS[k.type];
    if (fn) value = call(fn, [value], k.span);
    return { name: k.name, nameSpan: k.span, expr: value, span: k.span };
  });
  return { kind: 'extend', items, span };
}

/** The regex whose groups hold the key's value: quoted forms first, then the plain value. */
function keyPattern(key: string, pair: string | undefined, kv: string | undefined, quotes: readonly string[]): string {
  const pairs = quotes.map((q) => [atom(q[0]!), atom(q[1] ?? q[0]!), inClass(q[1] ?? q[0]!)] as const);
  const quoted = pairs.map(([open, close, inside]) => `${open}([^${inside}]*)${close}`);
  // A key may be quoted too ("event time"=...).
  const name = [escaped(key), ...pairs.map(([open, close]) => `${open}${escaped(key)}${close}`)].join('|');
  if (pair === undefined || kv === undefined) {
    // Any non-alphanumeric text separates: the value is the next run of letters and digits.
    const plain = '([\\p{L}\\p{N}_.\\-]*)';
    return `(?:^|[^\\p{L}\\p{N}_])(?:${name})[^\\p{L}\\p{N}]+(?:${[...quoted, plain].join('|')})`;
  }
  const P = atom(pair);
  const C = inClass(pair);
  // Words separated by spaces (none when the pair delimiter is a space): trailing spaces stay out.
  const plain = /\s/.test(pair) ? '(\\S*)' : `((?:[^${C}\\s]|\\s+[^${C}\\s])*)`;
  return `(?:^|${P})\\s*(?:${name})\\s*${atom(kv)}\\s*(?:${[...quoted, plain].join('|')})`;
}

const str = (value: string, span: Span): Expr => ({ kind: 'literal', type: 'string', value, span });
const num = (value: number, span: Span): Expr => ({ kind: 'literal', type: 'long', value: BigInt(value), span });
const call = (name: string, args: Expr[], span: Span): Expr => ({ kind: 'call', name, nameSpan: span, args, span });
