// graph-shortest-paths (graph-shortest-paths operator page) over graph-match's matches
// (analyze-graph-match.ts): each match also carries its first and last node ids and its number of
// hops; kept are the matches of the fewest hops per first and last node, all of them (output=all)
// or one (output=any): the one a breadth-first search walking each node's edges in the input's
// order finds first, that is the least sequence of edge row numbers (the graph-shortest-paths and
// map() pages print the path from South-West through South, whose first edge comes before the one
// through West; any other choice is as short, but the pages' rows name this one). A node's shortest path to itself is the empty
// one: a cycle back to the first node is no shortest path (the all() graph function page's paths
// from "North" list no "North").
import type { Expr, GraphMatchSpec, Operator, PatternEdge, PatternNode } from './ast';
import { binary, call, long, name } from './ast-build';
import { copy, neq, over, project, where } from './graph-build';
import { EDGE_ID, NODE_ID, propColumn, type Element, type GraphHost } from './graph-tables';
import type { Rel } from './ir';
import type { Span } from './tokens';

const refOf = (n: string, span: Span): Expr => ({ kind: 'name', name: n, span });

const PATH_FROM = '#pathFrom';
const PATH_TO = '#pathTo';
const PATH_LENGTH = '#pathLength';
const PATH_ORDER = '#pathOrder';
const HIDDEN = [PATH_FROM, PATH_TO, PATH_LENGTH, PATH_ORDER];

/** graph-shortest-paths' hidden columns: the first and last node of the path and its length. */
export function pathKey(
  spec: GraphMatchSpec,
  names: ReadonlyMap<PatternNode | PatternEdge, Element>,
  lengths: ReadonlyMap<PatternEdge, number>,
  at: Span,
): ReturnType<typeof copy>[] {
  const p = spec.patterns[0]!;
  const hops = p.edges.reduce((n, e) => n + (e.hops ? lengths.get(e)! : 1), 0);
  // The path's edges from its first node on: a variable-length edge's hops are e#1, e#2 ... (analyze-graph-match.ts).
  const edgeIds = p.edges.flatMap((e) => {
    const v = names.get(e)!.name;
    const elements = e.hops ? Array.from({ length: lengths.get(e)! }, (_, i) => `${v}#${i + 1}`) : [v];
    return elements.map((el) => name(propColumn(el, EDGE_ID), at));
  });
  return [
    copy(PATH_FROM, propColumn(names.get(p.nodes[0]!)!.name, NODE_ID), at),
    copy(PATH_TO, propColumn(names.get(p.nodes[p.nodes.length - 1]!)!.name, NODE_ID), at),
    { ...copy(PATH_LENGTH, PATH_LENGTH, at), expr: long(BigInt(hops), at) },
    // The length, then the edges' row numbers, each as 19 digits: text that sorts as the sequence does.
    {
      ...copy(PATH_ORDER, PATH_ORDER, at),
      expr: call(
        'strcat',
        [long(BigInt(hops), at), ...edgeIds].map((x) => digits(x, at)),
        at,
      ),
    },
  ];
}

/** A non-negative long as 19 digits, zeros in front. */
function digits(x: Expr, at: Span): Expr {
  const text = call('tostring', [x], at);
  const zeros = call(
    'strrep',
    [
      { kind: 'literal', type: 'string', value: '0', span: at },
      binary('-', long(19n, at), call('strlen', [text], at), at),
    ],
    at,
  );
  return call('strcat', [zeros, text], at);
}

/** The matches of minimal length per first and last node: all of them, or any one (graph-shortest-paths page). */
export function shortestOnly(
  h: GraphHost,
  matches: Rel,
  output: 'any' | 'all',
  bind: (suffix: string, rel: Rel) => string,
  at: Span,
): Rel {
  const visible = matches.columns.filter((c) => !HIDDEN.includes(c.name));
  h.materialize(matches);
  const all = bind('matches', matches);
  const key = [copy(PATH_FROM, PATH_FROM, at), copy(PATH_TO, PATH_TO, at)];
  const fn = (f: string, args: Expr[]): Expr => ({ kind: 'call', name: f, nameSpan: at, args, span: at });
  const shortest: Operator[] =
    output === 'any'
      ? [
          {
            kind: 'summarize',
            aggregates: [{ expr: fn('arg_min', [refOf(PATH_ORDER, at), { kind: 'star', span: at }]), span: at }],
            by: key,
            span: at,
          },
        ]
      : [
          {
            kind: 'join',
            join: {
              lookup: false,
              joinKind: 'inner',
              kindSpan: at,
              right: over(
                all,
                [
                  {
                    kind: 'summarize',
                    aggregates: [{ ...copy('#min', '#min', at), expr: fn('min', [refOf(PATH_LENGTH, at)]) }],
                    by: key,
                    span: at,
                  },
                ],
                at,
              ),
              on: [PATH_FROM, PATH_TO].map((c) => ({ left: c, right: c, leftSpan: at, rightSpan: at, span: at })),
            },
            span: at,
          },
          where(
            { kind: 'binary', op: '==', left: refOf(PATH_LENGTH, at), right: refOf('#min', at), opSpan: at, span: at },
            at,
          ),
        ];
  return h.subquery(
    over(
      all,
      [
        where(notACycle(at), at),
        ...shortest,
        project(
          visible.map((c) => copy(c.name, c.name, at)),
          at,
        ),
      ],
      at,
    ),
  );
}

/** The first and last node differ, or the path is empty (`*0..n`): no cycle counts as a shortest path. */
function notACycle(at: Span): Expr {
  const empty: Expr = {
    kind: 'binary',
    op: '==',
    left: refOf(PATH_LENGTH, at),
    right: { kind: 'literal', type: 'long', value: 0n, span: at },
    opSpan: at,
    span: at,
  };
  return { kind: 'binary', op: 'or', left: neq(PATH_FROM, PATH_TO, at), right: empty, opSpan: at, span: at };
}
