// AST of Kusto's graph operators (make-graph, graph-to-table and graph-match pages of the Kusto
// docs). A graph is not a table, so the parser reads make-graph together with the graph operators
// after it as one tabular operator whose result is the last one's table (parser-graph.ts).
import type { Expr, NamedExpr, Pipeline } from './ast';
import type { Span } from './tokens';

export interface GraphName {
  readonly name: string;
  readonly span: Span;
}

/** `make-graph Source --> Target [with Nodes on Id, ...] | [with_node_id=Name]`. */
export interface MakeGraphSpec {
  readonly source: GraphName;
  readonly target: GraphName;
  readonly nodes: readonly { readonly table: Pipeline; readonly id: GraphName; readonly span: Span }[];
  readonly nodeIdProperty?: GraphName;
  /** The word make-graph: where an engine that has no graphs refuses it. */
  readonly wordSpan: Span;
}

/** `graph-to-table nodes [as N] [with_node_id=C]` or `graph-to-table edges [as E] [with_source_id=S] [with_target_id=T]`. */
export interface GraphToTableSpec {
  readonly kind: 'toTable';
  readonly what: 'nodes' | 'edges';
  readonly nodeId?: GraphName;
  readonly sourceId?: GraphName;
  readonly targetId?: GraphName;
  readonly span: Span;
}

export type EdgeDirection = '->' | '<-' | '--';

export interface PatternNode {
  readonly kind: 'node';
  /** Absent for `()`. */
  readonly name?: GraphName;
  readonly span: Span;
}

export interface PatternEdge {
  readonly kind: 'edge';
  readonly name?: GraphName;
  readonly direction: EdgeDirection;
  /** `*lo..hi` of a variable-length edge. */
  readonly hops?: { readonly min: number; readonly max: number; readonly span: Span };
  readonly span: Span;
}

/** One comma-separated sequence: nodes[i] and nodes[i + 1] joined by edges[i]. */
export interface GraphPattern {
  readonly nodes: readonly PatternNode[];
  readonly edges: readonly PatternEdge[];
  readonly span: Span;
}

export type CyclesOption = 'none' | 'unique_edges' | 'all';

/** `graph-match [cycles=C] Pattern [, Pattern ...] [where Constraints] project Items`. */
export interface GraphMatchSpec {
  readonly kind: 'match';
  readonly cycles: CyclesOption;
  readonly patterns: readonly GraphPattern[];
  readonly where?: Expr;
  readonly project: readonly NamedExpr[];
  readonly span: Span;
}

export type GraphEnd = GraphToTableSpec | GraphMatchSpec;

export interface GraphSpec {
  readonly make: MakeGraphSpec;
  /** The graph operator that turns the graph into the table the pipeline goes on with. */
  readonly end: GraphEnd;
}
