// Parsing of graph-match (graph-match operator page): `[cycles=C] Pattern [, Pattern ...]
// [where Constraints] project Items`, a pattern being nodes `(n)` / `()` joined by edges
// `-[e]->`, `<-[e]-`, `-[e]-`, `-->`, `<--`, `--`, a variable-length edge `-[e*1..3]->`.
// A hop bound is an integer or the name of a constant, folded by the analyzer (analyze-graph-match.ts).
// Throws QueryError QUERY_SYNTAX for malformed patterns, QUERY_SEMANTIC for bad hop bounds.
import type {
  CyclesOption,
  EdgeDirection,
  GraphMatchSpec,
  GraphName,
  GraphPattern,
  HopBound,
  PatternEdge,
  PatternNode,
} from './ast';
import type { ErrorFactory } from './errors';
import type { OperatorCursor } from './parser-operators';
import type { Span } from './tokens';

const CYCLES: ReadonlySet<string> = new Set(['none', 'unique_edges', 'all']);

/**
 * graph-match, or graph-shortest-paths (`shortest`, one pattern with a variable-length edge). Before
 * the pattern, cycles= (both) and output=any|all (graph-shortest-paths), in either order
 * (graph_node_centrality_fl writes `graph-shortest-paths output = all cycles = none`).
 */
export function parseGraphMatch(p: OperatorCursor, start: number, shortest = false): GraphMatchSpec {
  let cycles: CyclesOption | undefined;
  let output: 'any' | 'all' | undefined;
  const option = (name: string): boolean => p.peekIdent(name) && p.peekAt(1)?.text === '=';
  for (;;) {
    if (shortest && output === undefined && option('output')) {
      p.next();
      p.next();
      const o = p.next();
      const value = o.kind === 'string' ? String(o.value) : o.text;
      if (value !== 'any' && value !== 'all') throw p.errors.syntax(`output is any or all, not '${o.text}'`, o.span);
      output = value;
    } else if (cycles === undefined && option('cycles')) {
      p.next();
      p.next();
      // A word or a string: the docs write both (cycles=none, cycles="none").
      const c = p.next();
      const value = c.kind === 'string' ? String(c.value) : c.text;
      if (!CYCLES.has(value)) throw p.errors.syntax(`cycles is none, unique_edges or all, not '${c.text}'`, c.span);
      cycles = value as CyclesOption;
    } else break;
  }
  if (shortest) output ??= 'any';
  const patterns: GraphPattern[] = [];
  do patterns.push(pattern(p));
  while (p.acceptOp(','));
  if (shortest && (patterns.length > 1 || !patterns[0]!.edges.some((e) => e.hops)))
    throw p.errors.semantic(
      'graph-shortest-paths takes one pattern with a variable-length edge, as (a)-[e*1..5]->(b)',
      patterns.length > 1 ? patterns[1]!.span : patterns[0]!.span,
    );
  const where = p.acceptIdent('where') ? p.expression() : undefined;
  if (!p.peekIdent('project'))
    throw p.errors.syntax(
      `${shortest ? 'graph-shortest-paths' : 'graph-match'} needs a project clause: project Name = n.Property, ...`,
      p.peek().span,
    );
  p.next();
  const project = p.parseNamedList();
  return {
    kind: 'match',
    cycles: cycles ?? 'unique_edges',
    ...(output ? { shortest: output } : {}),
    patterns,
    ...(where ? { where } : {}),
    project,
    span: p.spanFrom(start),
  };
}

function pattern(p: OperatorCursor): GraphPattern {
  const start = p.peek().span.start;
  const nodes: PatternNode[] = [node(p)];
  const edges: PatternEdge[] = [];
  while (p.peekOp('-') || p.peekOp('<')) {
    edges.push(edge(p));
    nodes.push(node(p));
  }
  return { nodes, edges, span: p.spanFrom(start) };
}

function node(p: OperatorCursor): PatternNode {
  const open = p.peek();
  if (!(open.kind === 'op' && open.text === '('))
    throw p.errors.syntax(`expected a pattern node such as (n) or (), found '${open.text || 'the end'}'`, open.span);
  p.next();
  const name = p.peekOp(')') ? undefined : p.expectName('a node variable name');
  p.expectOp(')');
  return { kind: 'node', ...(name ? { name } : {}), span: p.spanFrom(open.span.start) };
}

/** `-->`, `<--`, `--`, `-[...]->`, `<-[...]-`, `-[...]-`. */
function edge(p: OperatorCursor): PatternEdge {
  const start = p.peek().span.start;
  const leftArrow = p.acceptOp('<') !== undefined;
  p.expectOp('-');
  let body: { name?: GraphName; hops?: PatternEdge['hops'] } = {};
  if (p.acceptOp('[')) {
    body = edgeBody(p);
    p.expectOp(']');
  }
  p.expectOp('-');
  const rightArrow = p.acceptOp('>') !== undefined;
  const span = p.spanFrom(start);
  if (leftArrow && rightArrow)
    throw p.errors.syntax('an edge points one way (-->, <--) or any way (--), not both', span);
  const direction: EdgeDirection = leftArrow ? '<-' : rightArrow ? '->' : '--';
  return { kind: 'edge', ...body, direction, span };
}

function edgeBody(p: OperatorCursor): { name?: GraphName; hops?: PatternEdge['hops'] } {
  const name = p.peekOp('*') || p.peekOp(']') ? undefined : p.expectName('an edge variable name');
  const star = p.acceptOp('*');
  if (!star) return name ? { name } : {};
  const min = bound(p, 'the lower bound of the hops');
  p.expectOp('..');
  const max = bound(p, 'the upper bound of the hops (a variable-length edge is bounded: *1..5)');
  const span: Span = { start: star.span.start, end: max.span.end };
  checkHopBounds(p.errors, min.value, max.value, span);
  return { ...(name ? { name } : {}), hops: { min: min.value, max: max.value, span } };
}

/** The upper bound is not below the lower one (when both are known: a name is checked once folded). */
export function checkHopBounds(errors: ErrorFactory, min: HopBound, max: HopBound, span: Span): void {
  if (typeof min === 'number' && typeof max === 'number' && max < min)
    throw errors.semantic(`the hops' upper bound ${max} is below the lower bound ${min}`, span);
}

/** An integer, or the name of a constant (graph_path_discovery_fl's `*minPathLength..maxPathLength`). */
function bound(p: OperatorCursor, what: string): { value: HopBound; span: Span } {
  const t = p.peek();
  if (t.kind === 'long') {
    p.next();
    return { value: Number(t.value), span: t.span };
  }
  if (t.kind === 'ident') {
    p.next();
    return { value: { kind: 'name', name: t.text, span: t.span }, span: t.span };
  }
  throw p.errors.syntax(`expected ${what}, an integer or the name of a constant`, t.span);
}
