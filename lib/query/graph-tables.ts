// The private tables a graph is rewritten into (analyze-graph.ts), shared by the graph analyzers.
import type { TabularHost } from './analyze-join';
import type { IrColumn, KqlType, Rel } from './ir';

/** What the graph analysis needs from the Analyzer. */
export interface GraphHost extends TabularHost {
  bindTable(name: string, rel: Rel | undefined): void;
  /** Computed once however often the rewrite reads it (a CTE). */
  materialize(rel: Rel): void;
  /** The engine the query compiles for: Timestream has no graphs. */
  readonly engine?: 'duckdb' | 'timestream';
}

/** The graph's private tables, as let names, and what their columns are. */
export interface GraphTables {
  readonly nodes: string;
  readonly edges: string;
  readonly nodeProps: readonly IrColumn[];
  readonly edgeProps: readonly IrColumn[];
  readonly idType: KqlType;
}

export const NODE_ID = '#id';
export const EDGE_SRC = '#src';
export const EDGE_DST = '#dst';
export const EDGE_ID = '#eid';
