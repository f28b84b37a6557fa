// node_degree_in() and node_degree_out() (their graph function pages) in graph-match and
// graph-shortest-paths: the number of the graph's edges that enter, or leave, the node a variable
// matched, every edge row counted (two edges between the same nodes count twice, a self-loop once
// each way). Each is read as a private property of the node (#in, #out), joined to the node's table
// only where a query reads it: the edges table counted per target (or source) node, 0 for none.
// An edge with a null end joins no node, so no pattern matches it; it counts for neither end.
// Written without an argument inside map(), any() or all() over inner_nodes(e), it is the degree
// of each inner node, as labels() is there. Throws QueryError QUERY_SEMANTIC for any other argument.
import type { Expr, Operator } from './ast';
import { mapChildren } from './ast-walk';
import { and, copy, item, joinOn, over, ref, where } from './graph-build';
import { EDGE_DST, EDGE_SRC, NODE_ID, propColumn, type MatchScope } from './graph-tables';
import type { Span } from './tokens';

const DEGREES: Readonly<Record<string, { readonly prop: string; readonly end: string }>> = {
  node_degree_in: { prop: '#in', end: EDGE_DST },
  node_degree_out: { prop: '#out', end: EDGE_SRC },
};

/** The private node properties the degrees are read as. */
export const DEGREE_PROPS: ReadonlySet<string> = new Set(Object.values(DEGREES).map((d) => d.prop));

const isDegreeCall = (e: Expr): e is Expr & { kind: 'call' } => e.kind === 'call' && e.name in DEGREES;

/**
 * The variable and private property a node_degree_in/out(v) call reads, or undefined when `e` is no
 * such call. @throws QueryError QUERY_SEMANTIC when its argument is not a node variable of the pattern.
 */
export function degreeRef(s: MatchScope, e: Expr): { readonly v: string; readonly prop: string } | undefined {
  if (!isDegreeCall(e)) return undefined;
  const [v] = e.args;
  if (e.args.length === 1 && v!.kind === 'name' && s.vars.get(v!.name)?.kind === 'node')
    return { v: v!.name, prop: DEGREES[e.name]!.prop };
  throw s.errors.semantic(
    e.args.length === 0
      ? `${e.name}() without an argument reads the inner nodes of a variable-length edge: map(inner_nodes(e), ${e.name}())`
      : `${e.name}() reads a node variable of the pattern: ${e.name}(n)`,
    e.span,
  );
}

/** `e` with each argument-less degree call (over inner_nodes(), each node's) as its private property's name. */
export function innerNodeDegrees(e: Expr): Expr {
  if (isDegreeCall(e) && e.args.length === 0) return ref(DEGREES[e.name]!.prop, e.span);
  return mapChildren(e, innerNodeDegrees);
}

/**
 * The operators giving a node table of element `v` (its id in `v.#id`) the degree columns read of it:
 * a left outer join of the edges counted per end node, then 0 where no edge counts.
 */
export function degreeColumns(edges: string, v: string, read: ReadonlySet<string>, at: Span): Operator[] {
  return Object.values(DEGREES)
    .filter((d) => read.has(d.prop))
    .flatMap(({ prop, end }) => {
      const column = propColumn(v, prop);
      const [key, count] = [`${column}#node`, `${column}#count`];
      const bothEnds = and(
        [EDGE_SRC, EDGE_DST].map((e): Expr => ({
          kind: 'call',
          name: 'isnotnull',
          nameSpan: at,
          args: [ref(e, at)],
          span: at,
        })),
        at,
      )!;
      const counted = over(
        edges,
        [
          where(bothEnds, at),
          {
            kind: 'summarize',
            aggregates: [item(count, { kind: 'call', name: 'count', nameSpan: at, args: [], span: at })],
            by: [copy(key, end, at)],
            span: at,
          },
        ],
        at,
      );
      const zero: Expr = { kind: 'literal', type: 'long', value: 0n, span: at };
      const value: Expr = { kind: 'call', name: 'coalesce', nameSpan: at, args: [ref(count, at), zero], span: at };
      return [
        joinOn(counted, propColumn(v, NODE_ID), key, at, 'leftouter'),
        { kind: 'extend', items: [item(column, value)], span: at } as const,
      ];
    });
}
