// The graph functions of graph-match over a variable-length edge (map(), any(), all() and
// inner_nodes() graph function pages): `map(e, Expr)` evaluates Expr over each hop of e, a bare
// name in it being that hop's property; `map(inner_nodes(e), Expr)` over each node the path passes
// through. Rewritten per match into pack_array() of the per-element expressions (map), an or
// (any) or an and (all) of them; over no element: dynamic([]), false, true. labels() (its page)
// is an empty array for every node and edge of a graph of make-graph. Throws QueryError
// QUERY_SEMANTIC for these functions over anything else and for inner_nodes() outside them.
import type { Expr } from './ast';
import { mapChildren, namesIn } from './ast-walk';
import { and, ref } from './graph-build';
import { DEGREE_PROPS, innerNodeDegrees } from './graph-degree';
import { hopsOf, innerNodesOf, propColumn, type MatchScope } from './graph-tables';
import type { Span } from './tokens';

const FUNCTIONS: ReadonlySet<string> = new Set(['map', 'any', 'all']);

export interface GraphFunctionCall {
  readonly fn: 'map' | 'any' | 'all';
  /** The hop or inner-node list it runs over: the edge's name, or innerNodesOf(edge). */
  readonly list: string;
  /** Where the properties it reads are recorded: hopsOf(edge) (apart from e.Prop), or innerNodesOf(edge). */
  readonly key: string;
  /** The element properties the expression reads by bare name. */
  readonly props: ReadonlySet<string>;
  readonly expr: Expr;
  /** The expression, searched for other variables' properties (a.Prop) like any expression. */
  readonly rest: Expr;
  readonly span: Span;
}

/** `e` as a graph function call, or undefined when it is none. */
export function graphFunction(s: MatchScope, e: Expr): GraphFunctionCall | undefined {
  if (e.kind !== 'call') return undefined;
  if (e.name === 'inner_nodes')
    throw s.errors.semantic(
      'inner_nodes() is read through map(), any() or all(): map(inner_nodes(e), Property)',
      e.span,
    );
  if (!FUNCTIONS.has(e.name) || e.args.length !== 2) return undefined;
  const [over, expr] = e.args as [Expr, Expr];
  let edge: string;
  let list: string;
  let known: ReadonlySet<string>;
  if (over.kind === 'call' && over.name === 'inner_nodes' && over.args.length === 1 && over.args[0]!.kind === 'name') {
    edge = over.args[0].name;
    list = innerNodesOf(edge);
    known = new Set([...s.nodeProps, ...DEGREE_PROPS]);
  } else if (over.kind === 'name' && s.vars.has(over.name)) {
    edge = over.name;
    list = edge;
    known = s.vars.get(edge)!.props;
  } else return undefined;
  const v = s.vars.get(edge);
  if (!v || v.kind !== 'edge' || !v.variableLength)
    throw s.errors.semantic(
      `${e.name}() runs over a variable-length edge (or inner_nodes() of one), not '${edge}'`,
      over.span,
    );
  // labels() without an argument: the labels of each element, none in a graph of make-graph;
  // node_degree_in() and node_degree_out() without one: each inner node's degree (graph-degree.ts).
  const each = list === edge ? expr : withoutLabels(innerNodeDegrees(expr));
  const props = new Set([...namesIn(each)].filter((n) => known.has(n)));
  const key = list === edge ? hopsOf(edge) : list;
  return { fn: e.name as GraphFunctionCall['fn'], list, key, props, expr: each, rest: each, span: e.span };
}

/** The labels() graph function page: labels of a graph of make-graph are always an empty array. */
const noLabels = (span: Span): Expr => ({ kind: 'literal', type: 'dynamic', value: '[]', span });

/** `e` with each labels() (no argument: the element's labels, inside map(inner_nodes(e), ...)) as its value. */
function withoutLabels(e: Expr): Expr {
  if (e.kind === 'call' && e.name === 'labels' && e.args.length === 0) return noLabels(e.span);
  return mapChildren(e, withoutLabels);
}

/**
 * `labels(v)` of a pattern variable as its value (an empty array: the labels() page says a graph
 * of make-graph has no labels; labels come from graph models, which are not run here), or
 * undefined when `e` is no labels() call.
 * @throws QueryError QUERY_SEMANTIC for labels() of anything else, or without an argument outside
 * map(), any() and all() over inner_nodes().
 */
export function labelsValue(s: MatchScope, e: Expr): Expr | undefined {
  if (e.kind !== 'call' || e.name !== 'labels') return undefined;
  const [v] = e.args;
  if (e.args.length === 1 && v!.kind === 'name' && s.vars.has(v!.name)) return noLabels(e.span);
  throw s.errors.semantic(
    e.args.length === 0
      ? 'labels() without an argument reads the inner nodes of a variable-length edge: map(inner_nodes(e), labels())'
      : 'labels() reads a node or edge variable of the pattern: labels(n)',
    e.span,
  );
}

/** The call over this match's elements; `outer` rewrites the rest of each per-element expression. */
export function rewriteGraphFunction(
  f: GraphFunctionCall,
  elements: ReadonlyMap<string, readonly string[]>,
  outer: (e: Expr) => Expr,
): Expr {
  const at = f.span;
  const each = (elements.get(f.list) ?? []).map((element) => outer(substitute(f.expr, f.props, element)));
  if (f.fn === 'map')
    return each.length === 0
      ? { kind: 'literal', type: 'dynamic', value: '[]', span: at }
      : { kind: 'call', name: 'pack_array', nameSpan: at, args: each, span: at };
  if (each.length === 0) return { kind: 'literal', type: 'bool', value: f.fn === 'all', span: at };
  if (f.fn === 'all') return and(each, at)!;
  return each.reduce((a, b) => ({ kind: 'binary', op: 'or', left: a, right: b, opSpan: at, span: at }));
}

/** The expression with each bare property name read from the element's column. */
function substitute(e: Expr, props: ReadonlySet<string>, element: string): Expr {
  if (e.kind === 'name' && props.has(e.name)) return ref(propColumn(element, e.name), e.span);
  return mapChildren(e, (c) => substitute(c, props, element));
}
