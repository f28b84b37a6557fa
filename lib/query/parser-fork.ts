// Parsing of the operators that end a query in several result tables: `fork [name=](subquery) ...`
// (fork operator docs, https://learn.microsoft.com/en-us/kusto/query/fork-operator) and
// `facet by Col, ... [with (subquery)]` (facet operator docs, .../facet-operator), the latter read as
// the fork it stands for: the `with` table first, then one `summarize count_Col = count() by Col`
// per column, as the facet page prints them. Throws QUERY_SYNTAX for malformed text.
import type { ForkLeg, NamedExpr, Operator } from './ast';
import { call, name } from './ast-build';
import type { OperatorCursor } from './parser-operators';

export function parseFork(p: OperatorCursor, start: number): Operator {
  const legs: ForkLeg[] = [];
  for (;;) {
    const t = p.peek();
    const named = t.kind === 'ident' && p.peekAt(1)?.text === '=' && p.peekAt(2)?.text === '(';
    if (!named && !p.peekOp('(')) break;
    const legStart = t.span.start;
    let legName: string | undefined;
    if (named) {
      legName = p.expectName('a result table name').name;
      p.expectOp('=');
    }
    const open = p.expectOp('(');
    const operators = p.subOperators(open.span);
    p.expectOp(')');
    // The name of a leg's table: its name=, else the as operator ending it (fork docs).
    const last = operators[operators.length - 1];
    legName ??= last?.kind === 'as' ? last.name : undefined;
    legs.push({ ...(legName === undefined ? {} : { name: legName }), operators, span: p.spanFrom(legStart) });
  }
  if (legs.length === 0) throw p.errors.syntax("expected '(' and a sub-query after fork", p.peek().span);
  return { kind: 'fork', word: 'fork', legs, span: p.spanFrom(start) };
}

export function parseFacet(p: OperatorCursor, start: number): Operator {
  p.expectIdent('by');
  const columns = [p.expectName('a column name')];
  while (p.acceptOp(',')) columns.push(p.expectName('a column name'));
  const legs: ForkLeg[] = [];
  if (p.acceptIdent('with')) {
    const open = p.expectOp('(');
    const operators = p.subOperators(open.span);
    p.expectOp(')');
    legs.push({ operators, span: p.spanFrom(open.span.start) });
  }
  for (const c of columns) {
    const count: NamedExpr = {
      name: `count_${c.name}`,
      nameSpan: c.span,
      expr: call('count', [], c.span),
      span: c.span,
    };
    const by: NamedExpr = { expr: name(c.name, c.span), span: c.span };
    legs.push({
      name: c.name,
      operators: [{ kind: 'summarize', aggregates: [count], by: [by], span: c.span }],
      span: c.span,
    });
  }
  return { kind: 'fork', word: 'facet', legs, span: p.spanFrom(start) };
}
