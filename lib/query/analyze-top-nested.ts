// Semantic analysis of top-nested (top-nested operator docs): each level's key expression and its
// aggregation (one call, or an algebraic combination of calls such as `sum(x) / count()`, which the
// page supports), typed against the input; output columns are each level's key (named as summarize
// names a by key) and its aggregation (named aggregated_<key> unless `Name =` is given), in order.
// Throws QueryError QUERY_SEMANTIC for a dynamic key, duplicate names, a with others value of
// another type than the key, a column outside the aggregation's calls; QUERY_UNSUPPORTED for an
// aggregation with no call or a call that gives several columns.
import type { Expr, TopNestedClause } from './ast';
import { findInChildren } from './ast-walk';
import { analyzeAggregate } from './aggregates';
import { clip, type ErrorFactory } from './errors';
import type { Assigned, IrAgg, IrColumn, IrExpr, Rel, TopNestedLevel } from './ir';
import { derivedName, NameAllocator, OutputNames } from './naming';
import { AGGREGATE_FUNCTIONS, analyzeScalar, type ScalarEnv } from './scalars';
import { isConstant, isNumeric } from './types';

export interface TopNestedHost {
  readonly errors: ErrorFactory;
  newRef(): string;
  env(columns: readonly IrColumn[]): ScalarEnv;
  constantCount(e: Expr): bigint;
  /** An expression over aggregation calls: each call pushed to `aggs`, the expression over their columns. */
  aggregateExpression(
    item: { readonly expr: Expr; readonly span: Expr['span'] },
    env: ScalarEnv,
    starColumns: readonly IrColumn[],
    aggs: Assigned<IrAgg>[],
    taken: OutputNames,
  ): { column: IrColumn; expr: IrExpr };
}

export function analyzeTopNested(h: TopNestedHost, input: Rel, clauses: readonly TopNestedClause[]): Rel {
  const env = h.env(input.columns);
  const names = new NameAllocator();
  const name = (explicit: string | undefined, fallback: () => string, span: TopNestedClause['span']): string => {
    if (explicit !== undefined && names.has(explicit))
      throw h.errors.semantic(`duplicate column name '${clip(explicit)}'`, span);
    const chosen = explicit ?? fallback();
    names.add(chosen);
    return chosen;
  };
  const levels: TopNestedLevel[] = clauses.map((c) => {
    const key = analyzeScalar(c.key.expr, env);
    if (key.type === 'dynamic')
      throw h.errors.semantic(
        'top-nested cannot group by a dynamic value; convert it first, e.g. tostring(...)',
        c.key.expr.span,
      );
    const keyName = name(
      c.key.name,
      () => names.derivedOrColumnN(derivedName(c.key.expr)),
      c.key.nameSpan ?? c.key.span,
    );
    const aggregation = levelAggregation(h, c.agg.expr, env);
    const aggName = name(c.agg.name, () => names.unique(`aggregated_${keyName}`), c.agg.nameSpan ?? c.agg.span);
    const keyColumn: IrColumn = { name: keyName, type: key.type, ref: h.newRef() };
    const aggColumn: IrColumn = { name: aggName, type: aggregation.type, ref: h.newRef() };
    // One call is its own column's value; a combination reads its calls' hidden columns.
    const single = 'fn' in aggregation;
    const level: TopNestedLevel = {
      key: { column: keyColumn, value: key },
      agg: {
        column: aggColumn,
        value: single ? { kind: 'col', ref: aggColumn.ref, type: aggColumn.type } : aggregation.expr,
        parts: single ? [{ column: aggColumn, value: aggregation }] : aggregation.parts,
      },
      desc: c.desc,
      ...(c.count ? { count: h.constantCount(c.count) } : {}),
    };
    if (!c.others) return level;
    const others = analyzeScalar(c.others, h.env([]));
    const sameType = others.type === key.type || (isNumeric(others.type) && isNumeric(key.type));
    if (!isConstant(others) || !sameType)
      throw h.errors.semantic(
        `with others = needs a constant ${key.type} (the type of the level's value)`,
        c.others.span,
      );
    // With N omitted every value is in the top, so no row is left for an others record to aggregate
    // (top-nested page: the others record aggregates "all records that didn't make it to the top").
    return c.count ? { ...level, others } : level;
  });
  const columns = levels.flatMap((l) => [l.key.column, l.agg.column]);
  return { kind: 'topNested', input, levels, columns };
}

/** A level's aggregation: one call, or an expression over several (their calls hidden columns), as summarize reads it. */
function levelAggregation(
  h: TopNestedHost,
  expr: Expr,
  env: ScalarEnv,
): IrAgg | { readonly type: IrExpr['type']; readonly expr: IrExpr; readonly parts: Assigned<IrAgg>[] } {
  if (!callsAggregate(expr))
    throw h.errors.unsupported(
      'top-nested needs one aggregation function call per level, or an expression over such calls, such as sum(x) or sum(x) / count()',
      expr.span,
    );
  if (expr.kind !== 'call' || !AGGREGATE_FUNCTIONS.has(expr.name)) {
    const parts: Assigned<IrAgg>[] = [];
    const combined = h.aggregateExpression({ expr, span: expr.span }, env, [], parts, new OutputNames()).expr;
    return { type: combined.type, expr: combined, parts };
  }
  const outputs = analyzeAggregate(expr, { env, errors: h.errors, starColumns: [] });
  if (outputs.length !== 1 || outputs[0]!.multi)
    throw h.errors.unsupported(`${expr.name}() gives several columns; top-nested needs one value`, expr.span);
  return outputs[0]!.agg;
}

function callsAggregate(e: Expr): boolean {
  if (e.kind === 'call' && AGGREGATE_FUNCTIONS.has(e.name)) return true;
  return findInChildren(e, (c) => (callsAggregate(c) ? true : undefined)) ?? false;
}
