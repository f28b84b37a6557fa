// Semantic analysis of top-nested (top-nested operator docs): each level's key expression and its
// one aggregation, typed against the input; output columns are each level's key (named as summarize
// names a by key) and its aggregation (named aggregated_<key> unless `Name =` is given), in order.
// Throws QueryError QUERY_SEMANTIC for a dynamic key, duplicate names, a with others value of
// another type than the key; QUERY_UNSUPPORTED for an aggregation that is not a single call.
import type { Expr, TopNestedClause } from './ast';
import { analyzeAggregate } from './aggregates';
import { clip, type ErrorFactory } from './errors';
import type { IrColumn, Rel, TopNestedLevel } from './ir';
import { derivedName, NameAllocator } from './naming';
import { AGGREGATE_FUNCTIONS, analyzeScalar, type ScalarEnv } from './scalars';
import { isConstant, isNumeric } from './types';

export interface TopNestedHost {
  readonly errors: ErrorFactory;
  newRef(): string;
  env(columns: readonly IrColumn[]): ScalarEnv;
  constantCount(e: Expr): bigint;
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
    const call = c.agg.expr;
    if (call.kind !== 'call' || !AGGREGATE_FUNCTIONS.has(call.name))
      throw h.errors.unsupported(
        'top-nested supports one aggregation function call per level, such as sum(x) or count()',
        call.span,
      );
    const outputs = analyzeAggregate(call, { env, errors: h.errors, starColumns: [] });
    if (outputs.length !== 1 || outputs[0]!.multi)
      throw h.errors.unsupported(`${call.name}() gives several columns; top-nested needs one value`, call.span);
    const agg = outputs[0]!.agg;
    const aggName = name(c.agg.name, () => names.unique(`aggregated_${keyName}`), c.agg.nameSpan ?? c.agg.span);
    const level: TopNestedLevel = {
      key: { column: { name: keyName, type: key.type, ref: h.newRef() }, value: key },
      agg: { column: { name: aggName, type: agg.type, ref: h.newRef() }, value: agg },
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
