// Parsing of mv-apply after the operator's word (mv-apply operator docs,
// https://learn.microsoft.com/en-us/kusto/query/mv-apply-operator): the expansion part is
// mv-expand's (with_itemindex, items with `to typeof(T)`, limit), then `on (` and a sub-query of
// operators over an implicit source, with no `|` before its first operator. Throws QueryError
// QUERY_SYNTAX for malformed text, QUERY_UNSUPPORTED for `kind=`/`bagexpansion=` (which mv-apply
// does not take) and `context_id`.
import type { MvApplySpec } from './ast';
import { parseMvExpand, type OperatorCursor } from './parser-operators';

export function parseMvApply(p: OperatorCursor): MvApplySpec {
  const t = p.peek();
  if (t.kind === 'ident' && (t.text === 'kind' || t.text === 'bagexpansion') && p.peekAt(1)?.text === '=')
    throw p.errors.syntax(`mv-apply does not take ${t.text}=; expand a bag with an inner mv-expand`, t.span);
  const expand = parseMvExpand(p);
  if (p.peekIdent('context_id')) throw p.errors.unsupported("mv-apply's context_id is not supported", p.peek().span);
  const on = p.peek();
  p.expectIdent('on');
  const open = p.expectOp('(');
  const operators = p.subOperators(open.span);
  p.expectOp(')');
  return { expand, operators, onSpan: on.span };
}
