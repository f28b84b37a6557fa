// Parsing of make-series after the operator's word (make-series operator docs,
// https://learn.microsoft.com/en-us/kusto/query/make-series-operator): parameters, the aggregations
// with their defaults, the axis with from/to/step or `in range(start, stop, step)`, and the by clause.
// Throws QueryError QUERY_SYNTAX for malformed text and QUERY_UNSUPPORTED for hints other than
// hint.shufflekey (which only distributes the work).
import type { Expr, MakeSeriesSpec } from './ast';
import type { OperatorCursor } from './parser-operators';

export function parseMakeSeries(p: OperatorCursor): MakeSeriesSpec {
  let nonEmpty = false;
  for (;;) {
    const t = p.peek();
    if (t.kind !== 'ident') break;
    if (t.text === 'kind' && p.peekAt(1)?.text === '=') {
      p.next();
      p.next();
      const k = p.next();
      if (k.text !== 'nonempty') throw p.errors.syntax(`make-series kind is nonempty, not '${k.text}'`, k.span);
      nonEmpty = true;
      continue;
    }
    if (t.text === 'hint' && p.peekAt(1)?.text === '.') {
      p.next();
      p.expectOp('.');
      const name = p.expectName('a hint name');
      if (name.name !== 'shufflekey')
        throw p.errors.unsupported(`the 'hint.${name.name}' hint is not supported`, name.span);
      p.expectOp('=');
      p.expectName('the shuffle key column');
      continue;
    }
    break;
  }
  const aggregates: MakeSeriesSpec['aggregates'][number][] = [];
  do {
    const item = p.parseNamedExpr();
    if (!p.acceptIdent('default')) {
      aggregates.push(item);
      continue;
    }
    p.expectOp('=');
    const value = p.expression();
    aggregates.push({ ...item, default: value, span: p.spanFrom(item.span.start) });
  } while (p.acceptOp(','));
  p.expectIdent('on');
  const axis = p.expectName('the axis column after on');
  let from: Expr | undefined;
  let to: Expr | undefined;
  let step: Expr;
  let range = false;
  if (p.acceptIdent('in')) {
    p.expectIdent('range');
    p.expectOp('(');
    from = p.expression();
    p.expectOp(',');
    to = p.expression();
    p.expectOp(',');
    step = p.expression();
    p.expectOp(')');
    range = true;
  } else {
    if (p.acceptIdent('from')) from = p.expression();
    if (p.acceptIdent('to')) to = p.expression();
    p.expectIdent('step');
    step = p.expression();
  }
  const by = p.acceptIdent('by') ? p.parseNamedList() : [];
  const spec: MakeSeriesSpec = { nonEmpty, aggregates, axis, step, range, by };
  return { ...spec, ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
