// graph-shortest-paths (graph-shortest-paths operator page) over graph-match's matches
// (analyze-graph-match.ts): each match also carries its first and last node ids and its number of
// hops; kept are the matches of the fewest hops per first and last node, all of them (output=all)
// or any one (output=any, arg_min of the length). A node's shortest path to itself is the empty
// one: a cycle back to the first node is no shortest path (the all() graph function page's paths
// from "North" list no "North").
import type { Expr, GraphMatchSpec, Operator, PatternEdge, PatternNode } from './ast';
import { copy, neq, over, project, where } from './graph-build';
import { NODE_ID, propColumn, type Element, type GraphHost } from './graph-tables';
import type { Rel } from './ir';
import type { Span } from './tokens';

const refOf = (n: string, span: Span): Expr => ({ kind: 'name', name: n, span });

const PATH_FROM = '#pathFrom';
const PATH_TO = '#pathTo';
const PATH_LENGTH = '#pathLength';

/** graph-shortest-paths' hidden columns: the first and last node of the path and its length. */
export function pathKey(
  spec: GraphMatchSpec,
  names: ReadonlyMap<PatternNode | PatternEdge, Element>,
  lengths: ReadonlyMap<PatternEdge, number>,
  at: Span,
): ReturnType<typeof copy>[] {
  const p = spec.patterns[0]!;
  const hops = p.edges.reduce((n, e) => n + (e.hops ? lengths.get(e)! : 1), 0);
  return [
    copy(PATH_FROM, propColumn(names.get(p.nodes[0]!)!.name, NODE_ID), at),
    copy(PATH_TO, propColumn(names.get(p.nodes[p.nodes.length - 1]!)!.name, NODE_ID), at),
    { ...copy(PATH_LENGTH, PATH_LENGTH, at), expr: { kind: 'literal', type: 'long', value: BigInt(hops), span: at } },
  ];
}

/** The matches of minimal length per first and last node: all of them, or any one (graph-shortest-paths page). */
export function shortestOnly(
  h: GraphHost,
  matches: Rel,
  output: 'any' | 'all',
  bind: (suffix: string, rel: Rel) => string,
  at: Span,
): Rel {
  const visible = matches.columns.filter((c) => ![PATH_FROM, PATH_TO, PATH_LENGTH].includes(c.name));
  h.materialize(matches);
  const all = bind('matches', matches);
  const key = [copy(PATH_FROM, PATH_FROM, at), copy(PATH_TO, PATH_TO, at)];
  const call = (fn: string, args: Expr[]): Expr => ({ kind: 'call', name: fn, nameSpan: at, args, span: at });
  const shortest: Operator[] =
    output === 'any'
      ? [
          {
            kind: 'summarize',
            aggregates: [{ expr: call('arg_min', [refOf(PATH_LENGTH, at), { kind: 'star', span: at }]), span: at }],
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
                    aggregates: [{ ...copy('#min', '#min', at), expr: call('min', [refOf(PATH_LENGTH, at)]) }],
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
