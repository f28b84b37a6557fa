// graph-match (graph-match operator page) rewritten into joins over the graph's private tables
// (analyze-graph.ts). A pattern of fixed length is one chain of inner joins: each node variable
// joins the nodes table on its id, each edge the edges table on the id of the node it leaves. A
// variable-length edge `*lo..hi` becomes one such chain per length, the chains' results united
// (union of fixed lengths; see docs/query-api.md for the measured choice against a recursive CTE).
// cycles=unique_edges (the default) keeps matches whose edges are all different rows; cycles=none
// also wants their nodes different but where the pattern names one twice; cycles=all keeps every match. Throws QueryError
// QUERY_SEMANTIC for patterns that share no node or reuse an edge variable, QUERY_UNSUPPORTED for
// hop bounds past MAX_HOPS or more than MAX_LEGS lengths in all.
import type { Expr, GraphMatchSpec, GraphPattern, HopBound, Operator, PatternEdge, PatternNode, Pipeline } from './ast';
import {
  EDGE_DST,
  EDGE_ID,
  EDGE_SRC,
  hopsOf,
  innerNodesOf,
  NODE_ID,
  partitionOfKey,
  propColumn,
  type GraphHost,
  type Element,
  type GraphTables,
  type MatchScope,
  type MatchVariable,
} from './graph-tables';
import { and, copy, item, joinOn, neq, over, project, ref, unionOf, where } from './graph-build';
import { DEGREE_PROPS, degreeColumns } from './graph-degree';
import { pathKey, shortestOnly } from './analyze-graph-shortest';
import { checkHopBounds } from './parser-graph-pattern';
import { foldConstant } from './range';
import { analyzeScalar } from './scalars';
import { propertiesRead, rewriteProject, rewriteWhere } from './graph-match-exprs';
import type { Rel } from './ir';
import type { Span } from './tokens';

/** The longest variable-length edge run here: each length is a chain of joins of its own. */
export const MAX_HOPS = 10;
/**
 * The most chains (one per combination of variable-length edge lengths) one graph-match unites.
 * Measured against the default 5,000-term query limit: `*1..4` twice (16 chains) takes about 3,700
 * terms projecting one property, `*1..10` (10 chains) about 2,600; `*1..8` twice (64) about 33,000.
 */
export const MAX_LEGS = 16;

const FROM = '#from';
const TO = '#to';

export function analyzeGraphMatch(
  h: GraphHost,
  graph: GraphTables,
  spec: GraphMatchSpec,
  bind: (suffix: string, rel: Rel) => string,
  span: Span,
  partitionColumn?: string,
): Rel {
  spec = withConstantHops(h, spec);
  const names = elementNames(h, spec);
  const nodeProps = new Set(graph.nodeProps.map((c) => c.name));
  const edgeProps = new Set(graph.edgeProps.map((c) => c.name));
  const vars = new Map<string, MatchVariable>();
  for (const p of spec.patterns) {
    p.nodes.forEach((n) => {
      const name = names.get(n)!.name;
      vars.set(name, { name, kind: 'node', props: nodeProps, variableLength: false });
    });
    p.edges.forEach((e) => {
      const name = names.get(e)!.name;
      vars.set(name, { name, kind: 'edge', props: edgeProps, variableLength: e.hops !== undefined });
    });
  }
  const scope: MatchScope = { errors: h.errors, vars, nodeProps };
  const read = propertiesRead(scope, [...(spec.where ? [spec.where] : []), ...spec.project.map((i) => i.expr)]);
  const combos = lengthCombinations(h, spec);
  // The joins are positioned at the pattern: a limit their size crosses (the query's terms, each
  // join passing its columns on) is the pattern's, not make-graph's.
  const at = { start: spec.patterns[0]!.span.start, end: spec.patterns[spec.patterns.length - 1]!.span.end };
  const legs = combos.map((lengths) => {
    const chain = new Chain(graph, read, at);
    chain.build(h, spec.patterns, names, lengths);
    const operators: Operator[] = [...chain.operators];
    const conditions = [
      ...(spec.where ? [rewriteWhere(scope, spec.where, chain.hops)] : []),
      ...chain.cycleConditions(spec.cycles),
    ].filter((c): c is Expr => c !== undefined);
    const predicate = and(conditions, at);
    if (predicate) operators.push(where(predicate, at));
    const items = rewriteProject(scope, spec.project, chain.hops);
    // partitioned-by's operators run per partition: the first node's id tells its partition.
    if (partitionColumn)
      items.push(
        item(
          partitionColumn,
          partitionOfKey(ref(propColumn(names.get(spec.patterns[0]!.nodes[0]!)!.name, NODE_ID), at), at),
        ),
      );
    operators.push(project(spec.shortest ? [...items, ...pathKey(spec, names, lengths, span)] : items, at));
    return { ...chain.start, operators: [...chain.start.operators, ...operators] };
  });
  const matches = legs.length === 1 ? legs[0]! : unionOf(legs, at);
  if (!spec.shortest) return h.subquery(matches);
  return shortestOnly(h, h.subquery(matches), spec.shortest, bind, span);
}

/** Each pattern element's variable name: its own, or a private one for `()` and `-->`. */
function elementNames(h: GraphHost, spec: GraphMatchSpec): Map<PatternNode | PatternEdge, Element> {
  const out = new Map<PatternNode | PatternEdge, Element>();
  const kinds = new Map<string, 'node' | 'edge'>();
  let anonymous = 0;
  for (const p of spec.patterns) {
    for (const x of [...p.nodes, ...p.edges]) {
      const name = x.name?.name ?? `#anon${++anonymous}`;
      const seen = kinds.get(name);
      if (seen && (seen !== x.kind || x.kind === 'edge'))
        throw h.errors.semantic(
          seen !== x.kind
            ? `'${name}' names both a node and an edge of the pattern`
            : `the edge variable '${name}' appears twice in the pattern: an edge is matched once`,
          x.span,
        );
      kinds.set(name, x.kind);
      out.set(x, { name, kind: x.kind });
    }
  }
  return out;
}

/**
 * The spec with every hop bound a whole number: a name (`*1..maxHops`, graph_path_discovery_fl's
 * `*minPathLength..maxPathLength`) is folded in the query's scope, as `take n` folds its count.
 */
function withConstantHops(h: GraphHost, spec: GraphMatchSpec): GraphMatchSpec {
  const named = (e: PatternEdge): boolean =>
    e.hops !== undefined && (typeof e.hops.min !== 'number' || typeof e.hops.max !== 'number');
  if (!spec.patterns.some((p) => p.edges.some(named))) return spec;
  const env = h.env([]);
  const fold = (b: HopBound): number => {
    if (typeof b === 'number') return b;
    const v = foldConstant(analyzeScalar(b, env));
    if (typeof v !== 'bigint' || v < 0n)
      throw h.errors.semantic('a hop bound must be a constant whole number (an integer, or a let of one)', b.span);
    // Past MAX_HOPS lengthCombinations refuses it; a bound past a double's integers says nothing more.
    return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
  };
  const patterns = spec.patterns.map((p) => ({
    ...p,
    edges: p.edges.map((e) => {
      if (!named(e)) return e;
      const hops = { ...e.hops!, min: fold(e.hops!.min), max: fold(e.hops!.max) };
      checkHopBounds(h.errors, hops.min, hops.max, hops.span);
      return { ...e, hops };
    }),
  }));
  return { ...spec, patterns };
}

/** A hop bound withConstantHops folded. */
function folded(b: HopBound): number {
  if (typeof b !== 'number') throw new Error('a hop bound was not folded');
  return b;
}

/** Every combination of the variable-length edges' lengths, in pattern order. */
function lengthCombinations(h: GraphHost, spec: GraphMatchSpec): Map<PatternEdge, number>[] {
  let combos: Map<PatternEdge, number>[] = [new Map()];
  for (const p of spec.patterns)
    for (const e of p.edges) {
      if (!e.hops) continue;
      const [min, max] = [folded(e.hops.min), folded(e.hops.max)];
      if (max > MAX_HOPS)
        throw h.errors.unsupported(
          `a variable-length edge of up to ${max} hops: at most ${MAX_HOPS} are run here (each length is its own chain of joins)`,
          e.hops.span,
        );
      const next: Map<PatternEdge, number>[] = [];
      for (const c of combos) for (let k = min; k <= max; k++) next.push(new Map([...c, [e, k]]));
      if (next.length > MAX_LEGS)
        throw h.errors.unsupported(
          `the variable-length edges of this pattern have ${next.length} combinations of lengths: at most ${MAX_LEGS} are run here`,
          e.hops.span,
        );
      combos = next;
    }
  return combos;
}

/** One chain of joins for one choice of lengths. */
class Chain {
  start!: Pipeline;
  readonly operators: Operator[] = [];
  readonly hops = new Map<string, string[]>();
  private readonly bound = new Set<string>();
  private readonly edgeIds: string[] = [];
  private readonly nodeIds: string[] = [];
  /** Node id columns a zero-hop path makes one node: (x)-[e*0..1]->(y) at 0 hops has x = y. */
  private readonly sameNode: [string, string][] = [];

  constructor(
    private readonly graph: GraphTables,
    private readonly read: ReadonlyMap<string, ReadonlySet<string>>,
    private readonly at: Span,
  ) {}

  build(
    h: GraphHost,
    patterns: readonly GraphPattern[],
    names: ReadonlyMap<PatternNode | PatternEdge, Element>,
    lengths: ReadonlyMap<PatternEdge, number>,
  ): void {
    patterns.forEach((p, i) => {
      const nodeName = (n: PatternNode): string => names.get(n)!.name;
      let pivot = i === 0 ? 0 : p.nodes.findIndex((n) => this.bound.has(nodeName(n)));
      if (pivot < 0)
        throw h.errors.semantic(
          'each pattern after the first must share a node variable with the ones before it',
          p.span,
        );
      if (i === 0) {
        this.start = this.nodeTable(nodeName(p.nodes[0]!));
        this.bound.add(nodeName(p.nodes[0]!));
        pivot = 0;
      }
      for (let j = pivot; j < p.edges.length; j++)
        this.connect(
          nodeName(p.nodes[j]!),
          p.edges[j]!,
          names.get(p.edges[j]!)!.name,
          nodeName(p.nodes[j + 1]!),
          false,
          lengths,
        );
      for (let j = pivot - 1; j >= 0; j--)
        this.connect(
          nodeName(p.nodes[j + 1]!),
          p.edges[j]!,
          names.get(p.edges[j]!)!.name,
          nodeName(p.nodes[j]!),
          true,
          lengths,
        );
    });
  }

  /** Conditions of the cycles option over the ids collected while joining. */
  cycleConditions(cycles: GraphMatchSpec['cycles']): Expr[] {
    const distinct = (ids: readonly string[]): Expr[] =>
      ids.flatMap((a, i) => ids.slice(i + 1).map((b) => neq(a, b, this.at)));
    if (cycles === 'all') return [];
    if (cycles === 'unique_edges') return distinct(this.edgeIds);
    // none: no node repeats but where the pattern names it twice, so a variable-length edge of
    // k hops matches what k fixed edges match ((x)-[e*1..1]->(x) as (x)-->(x)). The nodes a
    // zero-hop path joins are one node (it has no cycle), so they count once.
    return [...distinct(this.edgeIds), ...distinct(this.nodeRepresentatives())];
  }

  /** One id column per node of the match: nodeIds less those a zero-hop path equates to another. */
  private nodeRepresentatives(): string[] {
    const parent = new Map<string, string>();
    const find = (c: string): string => {
      const p = parent.get(c);
      return p === undefined || p === c ? c : find(p);
    };
    for (const [a, b] of this.sameNode) {
      const ra = find(a);
      const rb = find(b);
      if (ra !== rb) parent.set(rb, ra);
    }
    return this.nodeIds.filter((c) => find(c) === c);
  }

  private nodeTable(v: string): Pipeline {
    this.nodeIds.push(propColumn(v, NODE_ID));
    return this.nodeTableOf(v, this.read.get(v) ?? new Set());
  }

  /** The nodes table, its id and the properties read (degrees too) prefixed with the element's name. */
  private nodeTableOf(v: string, read: ReadonlySet<string>): Pipeline {
    const props = [...read].filter((p) => !DEGREE_PROPS.has(p)).map((p) => copy(propColumn(v, p), p, this.at));
    return over(
      this.graph.nodes,
      [
        project([copy(propColumn(v, NODE_ID), NODE_ID, this.at), ...props], this.at),
        ...degreeColumns(this.graph.edges, v, read, this.at),
      ],
      this.at,
    );
  }

  /** The edge table walked one way, its columns prefixed with the hop's element name. */
  private edgeTable(
    element: string,
    variable: string,
    direction: PatternEdge['direction'],
    reversed: boolean,
  ): Pipeline {
    const read = new Set([...(this.read.get(variable) ?? []), ...(this.read.get(hopsOf(variable)) ?? [])]);
    const props = [...read].map((p) => copy(propColumn(element, p), p, this.at));
    const way = (from: string, to: string): Pipeline =>
      over(
        this.graph.edges,
        [
          project(
            [
              copy(propColumn(element, FROM), from, this.at),
              copy(propColumn(element, TO), to, this.at),
              copy(propColumn(element, EDGE_ID), EDGE_ID, this.at),
              ...props,
            ],
            this.at,
          ),
        ],
        this.at,
      );
    this.edgeIds.push(propColumn(element, EDGE_ID));
    if (direction === '--') {
      // Either way; a self-loop once, not once per way.
      const back = way(EDGE_DST, EDGE_SRC);
      return unionOf(
        [
          way(EDGE_SRC, EDGE_DST),
          { ...back, operators: [where(neq(EDGE_SRC, EDGE_DST, this.at), this.at), ...back.operators] },
        ],
        this.at,
      );
    }
    const forward = (direction === '->') !== reversed;
    return forward ? way(EDGE_SRC, EDGE_DST) : way(EDGE_DST, EDGE_SRC);
  }

  /** Joins the edge (its hops) from the bound node `from`, then the node `to`. */
  private connect(
    from: string,
    edge: PatternEdge,
    variable: string,
    to: string,
    reversed: boolean,
    lengths: ReadonlyMap<PatternEdge, number>,
  ): void {
    const k = edge.hops ? lengths.get(edge)! : 1;
    // Hop elements in pattern order (left to right), whichever way the chain walks them.
    const elements = edge.hops ? Array.from({ length: k }, (_, i) => `${variable}#${i + 1}`) : [variable];
    if (edge.hops) this.hops.set(variable, elements);
    const walk = reversed ? [...elements].reverse() : elements;
    // The nodes a path passes through, named by their place in pattern order; joined to the
    // nodes table only when map(inner_nodes(e), ...) or its kin read their properties.
    const innerProps = this.read.get(innerNodesOf(variable));
    const inner: string[] = [];
    let at = propColumn(from, NODE_ID);
    walk.forEach((element, i) => {
      this.operators.push(
        joinOn(this.edgeTable(element, variable, edge.direction, reversed), at, propColumn(element, FROM), this.at),
      );
      at = propColumn(element, TO);
      if (i === walk.length - 1) return;
      this.nodeIds.push(at);
      const node = `${variable}#node${reversed ? k - i - 1 : i + 1}`;
      inner.push(node);
      // An expression over the inner nodes that reads no property (map(inner_nodes(e), labels()))
      // still has one value per node: the nodes are counted, not joined.
      if (innerProps?.size)
        this.operators.push(joinOn(this.nodeTableOf(node, innerProps), at, propColumn(node, NODE_ID), this.at));
    });
    if (edge.hops) this.hops.set(innerNodesOf(variable), reversed ? inner.reverse() : inner);
    const target = propColumn(to, NODE_ID);
    if (edge.hops && k === 0) this.sameNode.push([propColumn(from, NODE_ID), target]);
    if (this.bound.has(to)) {
      this.operators.push(
        where(
          {
            kind: 'binary',
            op: '==',
            left: refOf(at, this.at),
            right: refOf(target, this.at),
            opSpan: this.at,
            span: this.at,
          },
          this.at,
        ),
      );
      return;
    }
    this.operators.push(joinOn(this.nodeTable(to), at, target, this.at));
    this.bound.add(to);
  }
}

const refOf = (n: string, span: Span): Expr => ({ kind: 'name', name: n, span });
