// Semantic analysis of top-hitters (https://learn.microsoft.com/en-us/kusto/query/top-hitters-operator),
// written as the docs' conceptual equivalent: `summarize approximate_count_V = count() by V | top N
// by approximate_count_V desc`, or with `by S`, `summarize approximate_sum_S = sum(S) by V | top N
// by approximate_sum_S desc`. Kusto approximates the counts (Count-Min-Sketch); here they are exact,
// which is within the approximation. Errors are summarize's and top's, at the operator's parts.
import type { Expr, Operator, TopHittersSpec } from './ast';
import type { MvApplyHost } from './analyze-mv-apply';
import type { Rel } from './ir';
import { derivedName } from './naming';
import type { Span } from './tokens';
import { runOver } from './plugin-rewrite';

export function analyzeTopHitters(h: MvApplyHost, input: Rel, spec: TopHittersSpec, span: Span): Rel {
  const value = spec.value.name ?? derivedName(spec.value.expr) ?? 'Column1';
  // The sum's column is named after the summing expression, as Kusto.Language names it (no page prints
  // one): approximate_sum_Damage for `by Damage`, approximate_sum_ for an expression with no name.
  const name = spec.sum ? `approximate_sum_${derivedName(spec.sum) ?? ''}` : `approximate_count_${value}`;
  const agg: Expr = spec.sum
    ? { kind: 'call', name: 'sum', nameSpan: spec.sum.span, args: [spec.sum], span: spec.sum.span }
    : { kind: 'call', name: 'count', nameSpan: span, args: [], span };
  const ops: Operator[] = [
    {
      kind: 'summarize',
      aggregates: [{ name, expr: agg, span: agg.span }],
      by: [{ ...spec.value, name: value }],
      span,
    },
    {
      kind: 'top',
      count: spec.count,
      by: [{ expr: { kind: 'name', name, span }, direction: 'desc', span }],
      span,
    },
  ];
  const table = `\u0000top-hitters ${h.newRef()}`;
  return runOver(h, input, ops, span, table);
}
