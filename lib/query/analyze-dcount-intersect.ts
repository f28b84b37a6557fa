// evaluate dcount_intersect(hll_1, hll_2 [, ...]) (dcount-intersect-plugin docs,
// https://learn.microsoft.com/en-us/kusto/query/dcount-intersect-plugin): per input row, s0 the
// distinct count of set 1, s1 that of set 1 ∩ set 2, ..., s(n-1) that of all n sets' intersection,
// after the input's columns (as Kusto.Language types the result: longs). Our hll() sketch is the
// array of the distinct values (functions-v4-sketch.ts), so an intersection is set_intersect of the
// sketches and its count exact (Kusto estimates it; on small sets the same). The page says nothing of
// a null sketch: s(i) is null when one of sets 1..i+1 is, as dcount_hll() of a null sketch is.
// Throws QUERY_SEMANTIC at the argument for fewer than 2 or more than 16 sets and a non-dynamic one.
import type { Expr, NamedExpr } from './ast';
import { binary, call } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import type { Rel } from './ir';
import { runOver } from './plugin-rewrite';
import { analyzeScalar } from './scalars';
import type { Span } from './tokens';

export function analyzeDcountIntersect(
  h: MvApplyHost,
  input: Rel,
  args: readonly Expr[],
  argsSpan: Span,
  span: Span,
): Rel {
  if (args.length < 2 || args.length > 16)
    throw h.errors.semantic(`dcount_intersect() takes 2 to 16 hll() values, got ${args.length}`, argsSpan);
  const env = h.env(input.columns);
  for (const a of args) {
    const type = analyzeScalar(a, env).type;
    if (type !== 'dynamic')
      throw h.errors.semantic(`dcount_intersect() takes hll() values (dynamic), not ${type}`, a.span);
  }
  // A null sketch (no hll() gives one; dynamic(null) does) has no distinct count: dcount_hll of it is
  // null, so is every intersection it takes part in (set_intersect read a null after the first as []).
  const anyNull = (sets: readonly Expr[]): Expr =>
    sets.map((a) => call('isnull', [a], span)).reduce((l, r) => binary('or', l, r, span));
  const noCount: Expr = { kind: 'literal', type: 'long', value: null, span };
  const items: NamedExpr[] = args.map((_, i) => ({
    name: `s${i}`,
    expr:
      i === 0
        ? call('dcount_hll', [args[0]!], span)
        : call(
            'iff',
            [
              anyNull(args.slice(0, i + 1)),
              noCount,
              call('array_length', [call('set_intersect', args.slice(0, i + 1), span)], span),
            ],
            span,
          ),
    span,
  }));
  return runOver(h, input, [{ kind: 'extend', items, span }], span);
}
