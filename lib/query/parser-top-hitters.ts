// Parsing of top-hitters after the operator's word (top-hitters operator docs,
// https://learn.microsoft.com/en-us/kusto/query/top-hitters-operator):
// `top-hitters NumberOfValues of ValueExpression [by SummingExpression]`. Throws QueryError
// QUERY_SYNTAX for malformed text.
import type { TopHittersSpec } from './ast';
import type { OperatorCursor } from './parser-operators';

export function parseTopHitters(p: OperatorCursor): TopHittersSpec {
  const count = p.expression();
  p.expectIdent('of');
  const value = p.parseNamedExpr();
  const sum = p.acceptIdent('by') ? p.expression() : undefined;
  return sum ? { count, value, sum } : { count, value };
}
