// Semantic analysis of search and of `*` on the left of a string operator (search operator docs,
// where operator docs: `where * has "x"`). A bare string in the predicate is a term looked up in
// every column: "x" is has, "*x" hassuffix, "x*" hasprefix, "*x*" contains (other wildcards are
// refused); `Column:"x"` looks in one column; kind=case_sensitive uses the _cs operators. Without a
// piped input, search reads the union of the named tables (all of ours by default) with a leading
// $table column. Throws QueryError QUERY_UNSUPPORTED for wildcards inside a term.
import type { Expr, SearchSpec } from './ast';
import type { TabularHost } from './analyze-join';
import { analyzeUnion } from './analyze-union';
import { namesIn } from './ast-walk';
import type { ErrorFactory } from './errors';
import type { IrExpr, Rel } from './ir';
import type { Span } from './tokens';

/**
 * The union of the searched tables with their name in $table (search as a source). A table lacking
 * a column the predicate names is not searched, so its columns are not in the output (the let
 * statement docs' `search MyColumn == 5` over two views prints $table and MyColumn only).
 */
export function searchSource(h: TabularHost, spec: SearchSpec, span: Span): Rel {
  const tables = spec.tables ?? { unionKind: 'outer', legs: [{ kind: 'pattern', pattern: '*', span }] };
  const named = namesIn(spec.predicate);
  // A name no table has (a let value) does not count.
  const has = (rel: Rel, n: string): boolean => rel.columns.some((c) => c.name === n);
  const hasAll = (rel: Rel, all: readonly Rel[]): boolean =>
    [...named].every((n) => has(rel, n) || !all.some((r) => has(r, n)));
  return analyzeUnion(h, undefined, { ...tables, withSource: { name: '$table', span } }, span, hasAll);
}

const CASE_SENSITIVE: Readonly<Record<string, string>> = {
  has: 'has_cs',
  hasprefix: 'hasprefix_cs',
  hassuffix: 'hassuffix_cs',
  contains: 'contains_cs',
  startswith: 'startswith_cs',
  endswith: 'endswith_cs',
};

/** The predicate with its terms written as string operators over `*` (or the named column). */
export function searchPredicate(errors: ErrorFactory, spec: SearchSpec): Expr {
  const cs = (op: string): string => (spec.caseSensitive ? (CASE_SENSITIVE[op] ?? op) : op);
  const term = (left: Expr, literal: Expr & { kind: 'literal' }, span: Span): Expr => {
    const text = String(literal.value);
    const starts = text.startsWith('*');
    const ends = text.length > 1 && text.endsWith('*');
    const inner = text.slice(starts ? 1 : 0, ends ? -1 : undefined);
    if (inner.includes('*'))
      throw errors.unsupported('a search term with * inside it (a regex match) is not supported', literal.span);
    const op = starts && ends ? 'contains' : starts ? 'hassuffix' : ends ? 'hasprefix' : 'has';
    return { kind: 'binary', op: cs(op), left, right: { ...literal, value: inner }, opSpan: span, span };
  };
  const rewrite = (e: Expr): Expr => {
    if (e.kind === 'literal' && e.type === 'string') return term({ kind: 'star', span: e.span }, e, e.span);
    if (e.kind === 'binary' && e.op === ':' && e.right.kind === 'literal') return term(e.left, e.right, e.span);
    if (e.kind === 'binary' && (e.op === 'and' || e.op === 'or'))
      return { ...e, left: rewrite(e.left), right: rewrite(e.right) };
    if (e.kind === 'binary') return { ...e, op: cs(e.op) };
    if (e.kind === 'call' && e.name === 'not') return { ...e, args: e.args.map(rewrite) };
    return e;
  };
  return rewrite(spec.predicate);
}

/** What `* op "x"` needs from the scalar analyzer. */
export interface StarHost {
  analyze(e: Expr): IrExpr;
  columnNames(): readonly string[];
}

/** `* has "x"`: any column (all of them for a negated operator) passes the test, as a string. */
export function analyzeStarPredicate(h: StarHost, expr: Expr & { kind: 'binary' }): IrExpr {
  const names = [...new Set(h.columnNames())].filter((n) => !n.startsWith('\u0000'));
  const parts = names.map((name) => h.analyze({ ...expr, left: { kind: 'name', name, span: expr.left.span } }));
  if (parts.length === 0) return { kind: 'lit', type: 'bool', value: false };
  if (parts.length === 1) return parts[0]!;
  return { kind: 'call', fn: expr.op.startsWith('!') ? 'and' : 'or', args: parts, type: 'bool' };
}
