// Parsing of search (search operator docs): `[T |] search [kind=CaseSensitivity] [in (Tables)]
// Predicate`. The predicate is an expression in which a bare string is a term looked up in every
// column (analyze-search.ts), or `Column:"term"` for one column. Throws QueryError QUERY_SYNTAX for
// malformed text, QUERY_UNSUPPORTED for `in (...)` after a piped input and for `Column:term`
// combined with other conditions.
import type { Expr, SearchSpec, UnionSpec } from './ast';
import { parseUnion, type OperatorCursor } from './parser-operators';

export function parseSearch(p: OperatorCursor, piped: boolean): SearchSpec {
  let caseSensitive = false;
  if (p.peekIdent('kind') && p.peekAt(1)?.text === '=') {
    p.next();
    p.next();
    const k = p.next();
    if (k.text === 'case_sensitive') caseSensitive = true;
    else if (k.text !== 'case_insensitive' && k.text !== 'default')
      throw p.errors.syntax(`search kind is default, case_insensitive or case_sensitive, not '${k.text}'`, k.span);
  }
  let tables: UnionSpec | undefined;
  const word = p.peek();
  if (word.text === 'in' && p.peekAt(1)?.text === '(') {
    if (piped) throw p.errors.unsupported('search in (...) cannot follow a piped input', word.span);
    p.next();
    p.next();
    tables = parseUnion(p);
    p.expectOp(')');
  }
  return { caseSensitive, predicate: predicate(p), ...(tables ? { tables } : {}) };
}

/** `Column:"term"` (one column), or an expression. */
function predicate(p: OperatorCursor): Expr {
  const first = p.peek();
  if (first.kind !== 'ident' || p.peekAt(1)?.text !== ':') return p.expression();
  p.next();
  p.next();
  const term = p.next();
  if (term.kind !== 'string') throw p.errors.syntax('expected a string after Column:', term.span);
  const expr: Expr = {
    kind: 'binary',
    op: ':',
    left: { kind: 'name', name: first.text, span: first.span },
    right: { kind: 'literal', type: 'string', value: term.value as string, span: term.span },
    opSpan: p.spanFrom(first.span.start),
    span: p.spanFrom(first.span.start),
  };
  const rest = p.peek();
  if (rest.kind === 'ident' && (rest.text === 'and' || rest.text === 'or'))
    throw p.errors.unsupported(
      'Column:term combined with other conditions is not supported; use Column has "term"',
      rest.span,
    );
  return expr;
}
