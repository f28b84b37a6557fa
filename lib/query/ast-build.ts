// Small AST builders for analyzers that rewrite an operator into ones the compiler already has
// (mv-apply, partition), and the operator's KQL word for their refusal messages.
import type { Expr, Operator, SortKey } from './ast';
import type { Span } from './tokens';

export const name = (n: string, span: Span): Expr => ({ kind: 'name', name: n, span });
export const long = (value: bigint, span: Span): Expr => ({ kind: 'literal', type: 'long', value, span });
export const call = (n: string, args: readonly Expr[], span: Span): Expr => ({
  kind: 'call',
  name: n,
  nameSpan: span,
  args,
  span,
});
export const binary = (op: string, left: Expr, right: Expr, span: Span): Expr => ({
  kind: 'binary',
  op,
  left,
  right,
  opSpan: span,
  span,
});
export const asc = (expr: Expr): SortKey => ({ expr, direction: 'asc', span: expr.span });

/** A serialize that numbers the rows in their serialized order (a hidden column `nth`), from 1. */
export const numbering = (nth: string, span: Span): Operator => ({
  kind: 'serialize',
  items: [{ name: nth, expr: call('row_number', [], span), span }],
  span,
});

/**
 * The rows sorted back by numbering()'s `nth`, which is then dropped: for operators whose SQL keeps
 * no row order (a join), over serialized rows.
 */
export const sortedBack = (nth: string, span: Span): Operator[] => [
  { kind: 'sort', keys: [asc(name(nth, span))], span },
  { kind: 'projectAway', names: [{ name: nth, wildcard: false, span }], span },
];

/** The KQL spelling of operators whose AST kind is not their word. */
const WORDS: Partial<Record<Operator['kind'], string>> = {
  projectKeep: 'project-keep',
  projectReorder: 'project-reorder',
  topNested: 'top-nested',
  makeSeries: 'make-series',
  mvExpand: 'mv-expand',
  mvApply: 'mv-apply',
  sampleDistinct: 'sample-distinct',
};
/** The operator's word in quotes, for "'x' inside ... is not supported". */
export const operatorWord = (op: Operator): string => `'${WORDS[op.kind] ?? op.kind}'`;
