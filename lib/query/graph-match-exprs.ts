// graph-match's where and project over pattern variables (graph-match operator page): `v.Prop`
// names a property of the node or edge a variable matched. Rewritten into the column `v.Prop` of
// the joined table; a property of a variable-length edge is an array of its hops' values
// (pack_array), and a where condition on one holds for every hop (each conjunct is repeated per
// hop). Throws QueryError QUERY_SEMANTIC for a bare variable or an unknown property.
import type { Expr, NamedExpr } from './ast';
import { findInChildren, mapChildren } from './ast-walk';
import { and, item, ref } from './graph-build';
import { NameAllocator } from './naming';
import { degreeRef } from './graph-degree';
import { graphFunction, labelsValue, rewriteGraphFunction } from './graph-functions';
import { propColumn, type MatchScope, type MatchVariable } from './graph-tables';
import type { Span } from './tokens';

/** The variable and property `e` reads (`v.Prop`), or undefined when it reads none. */
function propertyRef(s: MatchScope, e: Expr): { v: MatchVariable; prop: string; span: Span } | undefined {
  if (e.kind !== 'member' || e.target.kind !== 'name') return undefined;
  const v = s.vars.get(e.target.name);
  if (!v) return undefined;
  if (!v.props.has(e.name))
    throw s.errors.semantic(
      `the ${v.kind} '${v.name}' has no property '${e.name}'${v.props.size ? ` (it has ${[...v.props].join(', ')})` : ''}`,
      e.span,
    );
  return { v, prop: e.name, span: e.span };
}

/** Every property each variable is read for, checking each reference. */
export function propertiesRead(s: MatchScope, exprs: readonly Expr[]): Map<string, Set<string>> {
  const read = new Map<string, Set<string>>();
  const add = (key: string, prop: string): void => {
    const set = read.get(key) ?? new Set<string>();
    set.add(prop);
    read.set(key, set);
  };
  const visit = (e: Expr): undefined => {
    if (labelsValue(s, e)) return undefined;
    const f = graphFunction(s, e);
    if (f) {
      for (const prop of f.props) add(f.key, prop);
      return visit(f.rest);
    }
    const degree = degreeRef(s, e);
    if (degree) {
      add(degree.v, degree.prop);
      return undefined;
    }
    const r = propertyRef(s, e);
    if (r) {
      add(r.v.name, r.prop);
      return undefined;
    }
    if (e.kind === 'name' && s.vars.has(e.name))
      throw s.errors.semantic(
        `'${e.name}' is a pattern ${s.vars.get(e.name)!.kind}: read one of its properties, as ${e.name}.Property`,
        e.span,
      );
    return findInChildren(e, visit);
  };
  exprs.forEach(visit);
  return read;
}

/** `e` over the joined columns; `hops` maps each variable-length edge to its hop element names. */
export function rewrite(
  s: MatchScope,
  e: Expr,
  hops: ReadonlyMap<string, readonly string[]>,
  single?: { readonly edge: string; readonly hop: string },
): Expr {
  const labels = labelsValue(s, e);
  if (labels) return labels;
  const f = graphFunction(s, e);
  if (f) return rewriteGraphFunction(f, hops, (x) => rewrite(s, x, hops, single));
  const degree = degreeRef(s, e);
  if (degree) return ref(propColumn(degree.v, degree.prop), e.span);
  const r = propertyRef(s, e);
  if (!r) return mapChildren(e, (c) => rewrite(s, c, hops, single));
  if (r.v.name === single?.edge) return ref(propColumn(single.hop, r.prop), r.span);
  if (!r.v.variableLength) return ref(propColumn(r.v.name, r.prop), r.span);
  const names = hops.get(r.v.name) ?? [];
  if (names.length === 0) return { kind: 'literal', type: 'dynamic', value: '[]', span: r.span };
  return {
    kind: 'call',
    name: 'pack_array',
    nameSpan: r.span,
    args: names.map((h) => ref(propColumn(h, r.prop), r.span)),
    span: r.span,
  };
}

/** The top-level conjuncts of a where. */
function conjuncts(e: Expr): Expr[] {
  return e.kind === 'binary' && e.op === 'and' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

/** The where over the joined columns: a conjunct on a variable-length edge holds for each of its hops. */
export function rewriteWhere(
  s: MatchScope,
  where: Expr,
  hops: ReadonlyMap<string, readonly string[]>,
): Expr | undefined {
  const terms: Expr[] = [];
  for (const c of conjuncts(where)) {
    const edges = [...propertiesRead(s, [c]).keys()].filter((v) => s.vars.get(v)?.variableLength === true);
    if (edges.length > 1)
      throw s.errors.unsupported(
        `a where condition reads the variable-length edges ${edges.join(' and ')} together: write one condition per edge`,
        c.span,
      );
    if (edges.length === 0) {
      terms.push(rewrite(s, c, hops));
      continue;
    }
    // Each hop on its own: the edge read as that single hop.
    const edge = edges[0]!;
    for (const hop of hops.get(edge) ?? []) terms.push(rewrite(s, c, hops, { edge, hop }));
  }
  return and(terms, where.span);
}

/**
 * project's items over the joined columns, named as Kusto names them: v.Prop gives v_Prop, made
 * unique as project makes a derived name unique (x.id, x.id give x_id, x_id1), others ColumnN.
 */
export function rewriteProject(
  s: MatchScope,
  items: readonly NamedExpr[],
  hops: ReadonlyMap<string, readonly string[]>,
): NamedExpr[] {
  const names = new NameAllocator();
  return items.map((i) => {
    const expr = rewrite(s, i.expr, hops);
    if (i.name !== undefined || i.names !== undefined) {
      for (const n of i.names?.map((x) => x.name) ?? [i.name!]) names.add(n);
      return { ...i, expr };
    }
    const r = propertyRef(s, i.expr);
    // node_degree_out(src) is named node_degree_out, as its page prints it (Kusto.Language: Column1).
    const degree = degreeRef(s, i.expr) && i.expr.kind === 'call' ? i.expr.name : undefined;
    const name = names.derivedOrColumnN(r ? `${r.v.name}_${r.prop}` : degree);
    names.add(name);
    return { ...item(name, expr), span: i.span };
  });
}
