// The statements that precede a query besides `let`: `set name [= value];` (set statement docs) and
// `declare query_parameters(name:type [= default], ...);` (query parameters declaration docs). They
// are only read here; statements.ts gives them their meaning. Throws QueryError QUERY_SYNTAX.
import type { Expr, QueryParameterDecl, SetStatement } from './ast';
import type { OperatorCursor } from './parser-operators';
import { boolWord } from './tokens';
import { typeNamed } from './types';

/** `set name [= value]` up to and with its `;`, the cursor at `set`. */
export function parseSet(p: OperatorCursor): SetStatement {
  const start = p.next().span.start;
  const name = p.expectName('a request property name after set');
  let value: Expr | undefined;
  if (p.acceptOp('=')) {
    const t = p.peek();
    // A bare word is text (`set queryconsistency = weakconsistency`), as Kusto's set statement reads it.
    // A bool word reads as a bool value, not as a bare word (Kusto.Language's lexer).
    if (t.kind === 'ident' && boolWord(t) === undefined && p.peekAt(1)?.text !== '(') {
      p.next();
      value = { kind: 'literal', type: 'string', value: t.text, span: t.span };
    } else value = p.expression();
  }
  const span = p.spanFrom(start);
  if (!p.acceptOp(';')) throw p.errors.syntax("expected ';' after the set statement", p.peek().span);
  return value === undefined
    ? { kind: 'set', name: name.name, nameSpan: name.span, span }
    : { kind: 'set', name: name.name, nameSpan: name.span, value, span };
}

/** `declare query_parameters(...)` up to and with its `;`, the cursor at `declare`. */
export function parseDeclare(p: OperatorCursor): QueryParameterDecl[] {
  const declare = p.next();
  const what = p.peek();
  if (what.text !== 'query_parameters')
    throw p.errors.syntax("expected 'query_parameters' after declare (the only declare statement of a query)", {
      start: declare.span.start,
      end: what.span.end,
    });
  p.next();
  p.expectOp('(');
  const params: QueryParameterDecl[] = [];
  if (!p.peekOp(')')) {
    do params.push(parseParameter(p));
    while (p.acceptOp(','));
  }
  p.expectOp(')');
  if (!p.acceptOp(';')) throw p.errors.syntax("expected ';' after the declare statement", p.peek().span);
  return params;
}

function parseParameter(p: OperatorCursor): QueryParameterDecl {
  const name = p.expectName('a query parameter name');
  p.expectOp(':');
  const t = p.next();
  if (t.kind !== 'ident' || (typeNamed(t.text, true) === undefined && t.text !== 'decimal'))
    throw p.errors.syntax(`expected a scalar type name, found '${t.text}'`, t.span);
  const base = { name: name.name, nameSpan: name.span, type: t.text, typeSpan: t.span };
  return p.acceptOp('=') ? { ...base, default: p.expression() } : base;
}
