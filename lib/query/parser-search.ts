// Parsing of search (search operator docs): `[T |] search [kind=CaseSensitivity] [in (Tables)]
// Predicate`. The predicate is an expression in which a bare string is a term looked up in every
// column (analyze-search.ts), and `Column:"term"` one column's, combined with the others by and, or,
// not and parentheses (parser.ts reads it where a comparison stands). Throws QueryError QUERY_SYNTAX
// for malformed text, QUERY_UNSUPPORTED for `in (...)` after a piped input.
import type { SearchSpec, UnionSpec } from './ast';
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
  return { caseSensitive, predicate: p.searchPredicate(), ...(tables ? { tables } : {}) };
}
