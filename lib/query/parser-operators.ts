// Parsing of the tabular operators that take other tabular expressions: join, lookup and union
// (source and operator). The recursive-descent Parser (parser.ts) hands over after the operator's
// word; these functions read through its cursor. Throws QueryError QUERY_SYNTAX for malformed text,
// QUERY_UNSUPPORTED for valid Kusto outside the subset (hints other than the ignorable ones,
// isfuzzy), and QUERY_TOO_DEEP for sub-queries nested past the depth limit.
import type {
  Expr,
  JoinCondition,
  JoinKind,
  JoinSpec,
  MvExpandSpec,
  NamedExpr,
  Operator,
  ParsePart,
  ParseSpec,
  Pipeline,
  Source,
  UnionLeg,
  UnionSpec,
} from './ast';
import type { ErrorFactory } from './errors';
import { atScopeFunction, parseScopedSource } from './parser-scope';
import { boolWord, type Span, type Token } from './tokens';

/** The part of the Parser these functions read through. */
export interface OperatorCursor {
  readonly errors: ErrorFactory;
  peek(): Token;
  peekAt(offset: number): Token | undefined;
  next(): Token;
  peekOp(text: string): boolean;
  acceptOp(text: string): Token | undefined;
  expectOp(text: string): Token;
  peekIdent(text: string): boolean;
  acceptIdent(text: string): boolean;
  expectIdent(text: string): void;
  expectName(what: string): { name: string; span: Span };
  parseNamedList(): NamedExpr[];
  parseNamedExpr(): NamedExpr;
  /** A top-level scalar expression. */
  expression(): Expr;
  /** A top-level search predicate: a scalar expression in which `Column:"term"` is a comparison. */
  searchPredicate(): Expr;
  /** A whole tabular expression (source and operators) one nesting level deeper. */
  subPipeline(at: Span): Pipeline;
  /** Operators separated by `|` over an implicit source (mv-apply's sub-query), one nesting level deeper. */
  subOperators(at: Span): Operator[];
  /** A call of the query's user-defined function `f(args)` where a table goes, read if the cursor is at one. */
  functionSource?(): Source | undefined;
  spanFrom(start: number): Span;
  prevEnd(): number;
}

const JOIN_KINDS: Readonly<Record<string, JoinKind>> = {
  innerunique: 'innerunique',
  inner: 'inner',
  leftouter: 'leftouter',
  rightouter: 'rightouter',
  fullouter: 'fullouter',
  leftanti: 'leftanti',
  anti: 'leftanti',
  leftantisemi: 'leftanti',
  rightanti: 'rightanti',
  rightantisemi: 'rightanti',
  leftsemi: 'leftsemi',
  rightsemi: 'rightsemi',
};

/** Hints change how Kusto distributes the work, never the result: read and ignored. */
const IGNORED_HINTS: ReadonlySet<string> = new Set([
  'hint.strategy',
  'hint.shufflekey',
  'hint.remote',
  'hint.num_partitions',
  'hint.spread',
  'hint.concurrency',
]);

/** `join [kind=K] [hints] (Right) on Conditions` or `lookup [kind=leftouter|inner] (Right) on Conditions`. */
export function parseJoin(p: OperatorCursor, lookup: boolean, word: Token): JoinSpec {
  let joinKind: JoinKind = lookup ? 'leftouter' : 'innerunique';
  let kindSpan = word.span;
  for (;;) {
    const t = p.peek();
    if (t.kind === 'ident' && t.text === 'hint' && p.peekAt(1)?.text === '.') {
      skipHint(p);
      continue;
    }
    if (t.kind !== 'ident' || t.text !== 'kind' || p.peekAt(1)?.text !== '=') break;
    p.next();
    p.next();
    const k = p.next();
    const kind = JOIN_KINDS[k.text];
    if (!kind) throw p.errors.syntax(`unknown ${lookup ? 'lookup' : 'join'} kind '${k.text}'`, k.span);
    if (lookup && kind !== 'leftouter' && kind !== 'inner')
      throw p.errors.semantic(`lookup supports kind=leftouter and kind=inner only, not '${k.text}'`, k.span);
    joinKind = kind;
    kindSpan = k.span;
  }
  const right = rightSide(p);
  p.expectIdent('on');
  return { lookup, joinKind, kindSpan, right, on: parseConditions(p) };
}

/** `hint.name = value` (the lexer reads hint, '.', name). */
export function skipHint(p: OperatorCursor): void {
  const start = p.next().span.start;
  p.expectOp('.');
  const name = p.expectName('a hint name');
  const span = { start, end: name.span.end };
  if (!IGNORED_HINTS.has(`hint.${name.name}`))
    throw p.errors.unsupported(`the 'hint.${name.name}' hint is not supported`, span);
  p.expectOp('=');
  const value = p.next();
  if (value.kind === 'eof') throw p.errors.syntax('expected the value of the hint', value.span);
}

/** A parenthesized tabular expression, or a table or let name. */
function rightSide(p: OperatorCursor): Pipeline {
  const open = p.acceptOp('(');
  if (open) {
    const pipeline = p.subPipeline(open.span);
    p.expectOp(')');
    return pipeline;
  }
  const t = p.peek();
  if (atScopeFunction(p)) {
    const source = parseScopedSource(p);
    return { kind: 'pipeline', source, operators: [], span: source.span };
  }
  const name = p.expectName('a table name or a parenthesized query');
  return { kind: 'pipeline', source: { kind: 'table', name: name.name, span: name.span }, operators: [], span: t.span };
}

function parseConditions(p: OperatorCursor): JoinCondition[] {
  const conditions: JoinCondition[] = [];
  do {
    const start = p.peek().span.start;
    const first = sideName(p);
    if (first.side === undefined) {
      conditions.push({
        left: first.name,
        right: first.name,
        leftSpan: first.span,
        rightSpan: first.span,
        span: first.span,
      });
      continue;
    }
    const op = p.expectOp('==');
    const second = sideName(p);
    if (second.side === undefined || second.side === first.side) {
      throw p.errors.syntax(
        'a join condition compares a $left column with a $right column: $left.a == $right.b',
        second.side === undefined ? second.span : op.span,
      );
    }
    const [l, r] = first.side === 'left' ? [first, second] : [second, first];
    conditions.push({ left: l.name, right: r.name, leftSpan: l.span, rightSpan: r.span, span: p.spanFrom(start) });
  } while (p.acceptOp(',') || p.acceptIdent('and'));
  return conditions;
}

function sideName(p: OperatorCursor): { side?: 'left' | 'right'; name: string; span: Span } {
  const t = p.peek();
  if (t.kind === 'ident' && (t.text === '$left' || t.text === '$right')) {
    p.next();
    p.expectOp('.');
    const n = p.expectName('a column name');
    return { side: t.text === '$left' ? 'left' : 'right', name: n.name, span: n.span };
  }
  if (t.kind === 'ident' && t.text.startsWith('$'))
    throw p.errors.syntax(`expected $left or $right, found '${t.text}'`, t.span);
  return p.expectName('a join column');
}

/** `union [kind=inner|outer] [withsource=Name] [isfuzzy=true|false] Leg, Leg ...` after the word union. */
export function parseUnion(p: OperatorCursor): UnionSpec {
  let unionKind: 'inner' | 'outer' = 'outer';
  let withSource: { name: string; span: Span } | undefined;
  let fuzzy = false;
  for (;;) {
    const t = p.peek();
    if (t.kind === 'ident' && t.text === 'hint' && p.peekAt(1)?.text === '.') {
      skipHint(p);
      continue;
    }
    if (t.kind !== 'ident' || p.peekAt(1)?.text !== '=') break;
    p.next();
    p.next();
    if (t.text === 'kind') {
      const k = p.next();
      if (k.text !== 'inner' && k.text !== 'outer')
        throw p.errors.syntax(`union kind is inner or outer, not '${k.text}'`, k.span);
      unionKind = k.text;
    } else if (t.text === 'withsource') {
      withSource = p.expectName('a column name after withsource=');
    } else if (t.text === 'isfuzzy') {
      const v = p.next();
      const value = boolWord(v);
      if (value === undefined) throw p.errors.syntax("isfuzzy is 'true' or 'false'", v.span);
      fuzzy = value;
    } else throw p.errors.syntax(`unknown union parameter '${t.text}'`, t.span);
  }
  const legs: UnionLeg[] = [];
  do legs.push(unionLeg(p));
  while (p.acceptOp(','));
  return { unionKind, legs, ...(withSource ? { withSource } : {}), ...(fuzzy ? { fuzzy } : {}) };
}

function unionLeg(p: OperatorCursor): UnionLeg {
  const open = p.acceptOp('(');
  if (open) {
    const pipeline = p.subPipeline(open.span);
    p.expectOp(')');
    return { kind: 'pipeline', pipeline };
  }
  // A scoped read (table('T'), database('D').T) or a tabular function's call (union f("a"), f("b")).
  const source = atScopeFunction(p) ? parseScopedSource(p) : p.functionSource?.();
  if (source) return { kind: 'pipeline', pipeline: { kind: 'pipeline', source, operators: [], span: source.span } };
  const t = p.peek();
  const start = t.span.start;
  // A name pattern: words and `*` written without spaces (S*, *s, St*es).
  let pattern = '';
  let end = start;
  while (pattern === '' || p.peek().span.start === end) {
    const u = p.peek();
    if (u.kind === 'op' && u.text === '*') pattern += '*';
    else if (u.kind === 'ident' && !pattern.endsWith('*') && pattern !== '') break;
    else if (u.kind === 'ident') pattern += u.text;
    else if (pattern === '') {
      const n = p.expectName('a table name or a parenthesized query');
      return {
        kind: 'pipeline',
        name: n.name,
        pipeline: {
          kind: 'pipeline',
          source: { kind: 'table', name: n.name, span: n.span },
          operators: [],
          span: n.span,
        },
      };
    } else break;
    p.next();
    end = p.prevEnd();
  }
  const span = { start, end };
  if (pattern.includes('*')) return { kind: 'pattern', pattern, span };
  return {
    kind: 'pipeline',
    name: pattern,
    pipeline: { kind: 'pipeline', source: { kind: 'table', name: pattern, span }, operators: [], span },
  };
}

/**
 * After the word mv-expand (mv-expand operator docs), or its legacy spelling mvexpand, which the page
 * calls obsolete with "a default row limit of 128" (an explicit `limit` still wins).
 */
export function parseMvExpand(p: OperatorCursor, legacy = false): MvExpandSpec {
  let bagKind: 'bag' | 'array' = 'bag';
  let itemIndex: { name: string; span: Span } | undefined;
  for (;;) {
    const t = p.peek();
    if (t.kind !== 'ident' || p.peekAt(1)?.text !== '=' || !['kind', 'bagexpansion', 'with_itemindex'].includes(t.text))
      break;
    p.next();
    p.next();
    if (t.text === 'with_itemindex') {
      itemIndex = p.expectName('a column name after with_itemindex=');
      continue;
    }
    const k = p.next();
    if (k.text !== 'bag' && k.text !== 'array')
      throw p.errors.syntax(`${t.text} is bag or array, not '${k.text}'`, k.span);
    bagKind = k.text;
  }
  const items: MvExpandSpec['items'][number][] = [];
  do {
    const item = p.parseNamedExpr();
    if (!p.acceptIdent('to')) {
      items.push(item);
      continue;
    }
    p.expectIdent('typeof');
    p.expectOp('(');
    const type = p.expectName('a type name');
    p.expectOp(')');
    items.push({ ...item, toType: type, span: p.spanFrom(item.span.start) });
  } while (p.acceptOp(','));
  const limit = p.acceptIdent('limit') ? p.expression() : legacy ? legacyMvExpandLimit(p) : undefined;
  const spec: MvExpandSpec = { bagKind, items };
  return { ...spec, ...(itemIndex ? { itemIndex } : {}), ...(limit ? { limit } : {}) };
}

/** mvexpand's implicit `limit 128`, placed where the operator ends. */
function legacyMvExpandLimit(p: OperatorCursor): Expr {
  const at = p.prevEnd();
  return { kind: 'literal', type: 'long', value: 128n, span: { start: at, end: at } };
}

/** After parse or parse-where: `[kind=simple|regex|relaxed] Expr with Part ...` up to the next `|`. */
export function parseParse(p: OperatorCursor, where: boolean): ParseSpec {
  let mode: ParseSpec['mode'] = 'simple';
  let flags: ParseSpec['flags'];
  if (p.peekIdent('kind') && p.peekAt(1)?.text === '=') {
    p.next();
    p.next();
    const k = p.next();
    if (k.text !== 'simple' && k.text !== 'regex' && k.text !== 'relaxed')
      throw p.errors.syntax(`parse kind is simple, regex or relaxed, not '${k.text}'`, k.span);
    mode = k.text;
  }
  if (p.peekIdent('flags') && p.peekAt(1)?.text === '=') {
    p.next();
    p.next();
    // The page: "If kind is regex, then you can specify regex flags" (RE2's flags: i, m, s, U).
    const f = p.next();
    if (mode !== 'regex') throw p.errors.syntax('parse flags= needs kind=regex before it', f.span);
    if (f.kind !== 'ident' || !/^[imsU]+$/.test(f.text))
      throw p.errors.syntax(`parse kind=regex flags are letters of i, m, s and U, not '${f.text}'`, f.span);
    flags = { letters: f.text, span: f.span };
  }
  const source = p.expression();
  p.expectIdent('with');
  const parts: ParsePart[] = [];
  for (;;) {
    const t = p.peek();
    if (t.kind === 'string') {
      p.next();
      parts.push({ kind: 'text', value: t.value as string, span: t.span });
    } else if (t.kind === 'op' && t.text === '*') {
      p.next();
      parts.push({ kind: 'star', span: t.span });
    } else if (t.kind === 'ident' || (t.kind === 'op' && t.text === '[')) {
      const n = p.expectName('a column name');
      if (p.acceptOp(':')) {
        const type = p.expectName('a column type');
        parts.push({
          kind: 'column',
          name: n.name,
          type: type.name,
          span: { start: n.span.start, end: type.span.end },
        });
      } else parts.push({ kind: 'column', name: n.name, span: n.span });
    } else break;
  }
  if (!parts.some((x) => x.kind === 'column'))
    throw p.errors.syntax('parse needs at least one column to extract after with', p.peek().span);
  return { mode, ...(flags ? { flags } : {}), where, source, parts };
}
