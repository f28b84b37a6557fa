// Parsing of top-nested (top-nested operator docs): after the first word top-nested,
// `[N] of [Name =] Expr [with others = ConstExpr] by [Name =] Aggregation [asc | desc]`, then
// `, top-nested ...` for each further level. Throws QueryError QUERY_SYNTAX for malformed text.
import type { TopNestedClause } from './ast';
import type { OperatorCursor } from './parser-operators';

export function parseTopNested(p: OperatorCursor): TopNestedClause[] {
  const clauses: TopNestedClause[] = [];
  do {
    const start = p.peek().span.start;
    if (clauses.length > 0) {
      const word = p.peek();
      if (word.kind !== 'ident' || word.text !== 'top-nested')
        throw p.errors.syntax(`expected 'top-nested' after ',', found '${word.text || 'end of query'}'`, word.span);
      p.next();
    }
    const count = p.peekIdent('of') ? undefined : p.expression();
    p.expectIdent('of');
    const key = p.parseNamedExpr();
    let others;
    if (p.acceptIdent('with')) {
      p.expectIdent('others');
      p.expectOp('=');
      others = p.expression();
    }
    p.expectIdent('by');
    const agg = p.parseNamedExpr();
    const desc = !p.acceptIdent('asc');
    if (desc) p.acceptIdent('desc');
    clauses.push({
      key,
      agg,
      desc,
      span: p.spanFrom(start),
      ...(count ? { count } : {}),
      ...(others ? { others } : {}),
    });
  } while (p.acceptOp(','));
  return clauses;
}
