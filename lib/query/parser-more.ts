// Parsing of small operator forms: `sample-distinct N of Column` (sample-distinct operator docs) and
// project-reorder's per-pattern order `asc | desc | granny-asc | granny-desc` (project-reorder docs).
// Throws QueryError QUERY_SYNTAX for malformed text.
import type { NamePattern, Operator, ReorderOrder } from './ast';
import type { OperatorCursor } from './parser-operators';

const ORDERS: readonly ReorderOrder[] = ['asc', 'desc', 'granny-asc', 'granny-desc'];

/** After the word sample-distinct: `N of Column`. */
export function parseSampleDistinct(p: OperatorCursor, start: number): Operator {
  const count = p.expression();
  p.expectIdent('of');
  const column = p.expression();
  return { kind: 'sampleDistinct', count, column, span: p.spanFrom(start) };
}

/** After the word project-reorder: `Pattern [asc|desc|granny-asc|granny-desc], ...`. */
export function parseProjectReorder(p: OperatorCursor, pattern: () => NamePattern, start: number): Operator {
  const names: NamePattern[] = [];
  const orders: (ReorderOrder | undefined)[] = [];
  do {
    names.push(pattern());
    orders.push(readOrder(p));
  } while (p.acceptOp(','));
  return orders.some((o) => o !== undefined)
    ? { kind: 'projectReorder', names, orders, span: p.spanFrom(start) }
    : { kind: 'projectReorder', names, span: p.spanFrom(start) };
}

/** `granny-asc` is three tokens (granny, -, asc) with no space between them. */
function readOrder(p: OperatorCursor): ReorderOrder | undefined {
  const t = p.peek();
  if (t.kind !== 'ident') return undefined;
  if (t.text === 'asc' || t.text === 'desc') {
    p.next();
    return t.text;
  }
  const dash = p.peekAt(1);
  const word = p.peekAt(2);
  if (
    t.text === 'granny' &&
    dash?.text === '-' &&
    dash.span.start === t.span.end &&
    (word?.text === 'asc' || word?.text === 'desc') &&
    word.span.start === dash.span.end
  ) {
    p.next();
    p.next();
    p.next();
    const order = `granny-${word.text}` as ReorderOrder;
    return ORDERS.includes(order) ? order : undefined;
  }
  return undefined;
}
