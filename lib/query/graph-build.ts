// AST builders for the graph analyzers, which rewrite graph operators into tabular operators the
// compiler already has (extend, union, summarize, join, where, project) over private let names.
import type { Expr, JoinCondition, NamedExpr, Operator, Pipeline } from './ast';
import type { Span } from './tokens';

export const ref = (n: string, span: Span): Expr => ({ kind: 'name', name: n, span });

export const item = (n: string, expr: Expr): NamedExpr => ({ name: n, nameSpan: expr.span, expr, span: expr.span });

export const copy = (to: string, from: string, span: Span): NamedExpr => item(to, ref(from, span));

export const over = (table: string, operators: readonly Operator[], span: Span): Pipeline => ({
  kind: 'pipeline',
  source: { kind: 'table', name: table, span },
  operators,
  span,
});

export const project = (items: readonly NamedExpr[], span: Span): Operator => ({ kind: 'project', items, span });
export const extend = (items: readonly NamedExpr[], span: Span): Operator => ({ kind: 'extend', items, span });
export const where = (predicate: Expr, span: Span): Operator => ({ kind: 'where', predicate, span });

export const unionOf = (legs: readonly Pipeline[], span: Span): Pipeline => ({
  kind: 'pipeline',
  source: {
    kind: 'union',
    union: { unionKind: 'outer', legs: legs.map((pipeline) => ({ kind: 'pipeline', pipeline })) },
    span,
  },
  operators: [],
  span,
});

/** An inner join (every match, not innerunique's one row per left key) on left == right, or a leftouter one. */
export const joinOn = (
  right: Pipeline,
  left: string,
  rightKey: string,
  span: Span,
  joinKind: 'inner' | 'leftouter' = 'inner',
): Operator => {
  const on: JoinCondition = { left, right: rightKey, leftSpan: span, rightSpan: span, span };
  return { kind: 'join', join: { lookup: false, joinKind, kindSpan: span, right, on: [on] }, span };
};

export const and = (terms: readonly Expr[], span: Span): Expr | undefined =>
  terms.reduce<Expr | undefined>(
    (acc, t) => (acc ? { kind: 'binary', op: 'and', left: acc, right: t, opSpan: span, span } : t),
    undefined,
  );

export const neq = (a: string, b: string, span: Span): Expr => ({
  kind: 'binary',
  op: '!=',
  left: ref(a, span),
  right: ref(b, span),
  opSpan: span,
  span,
});
