// The private tables a graph is rewritten into (analyze-graph.ts), shared by the graph analyzers.
import type { TabularHost } from './analyze-join';
import type { Expr } from './ast';
import { binary, call, long } from './ast-build';
import type { ErrorFactory } from './errors';
import type { IrColumn, Rel } from './ir';
import type { ScalarEnv } from './scalars';
import type { Span } from './tokens';

/** What the graph analysis needs from the Analyzer. */
export interface GraphHost extends TabularHost {
  bindTable(name: string, rel: Rel | undefined): void;
  /** Computed once however often the rewrite reads it (a CTE). */
  materialize(rel: Rel): void;
  /** The engine the query compiles for: Timestream has no graphs. */
  readonly engine?: 'duckdb' | 'timestream';
  /** The scalar scope over these columns (the query's lets, a function's parameters). */
  env(columns: readonly IrColumn[]): ScalarEnv;
}

/** The graph's private tables, as let names, and what their columns are. */
export interface GraphTables {
  readonly nodes: string;
  readonly edges: string;
  readonly nodeProps: readonly IrColumn[];
  readonly edgeProps: readonly IrColumn[];
}

export const NODE_ID = '#id';
export const EDGE_SRC = '#src';
export const EDGE_DST = '#dst';
export const EDGE_ID = '#eid';

/** A pattern variable of graph-match: what it matches, the properties it has, whether it is a variable-length edge. */
export interface MatchVariable {
  readonly name: string;
  readonly kind: 'node' | 'edge';
  readonly props: ReadonlySet<string>;
  readonly variableLength: boolean;
}

export interface MatchScope {
  readonly errors: ErrorFactory;
  readonly vars: ReadonlyMap<string, MatchVariable>;
  /** The node properties, read by name inside map(inner_nodes(e), ...) and its kin. */
  readonly nodeProps: ReadonlySet<string>;
}

/** The key under which the properties of a variable-length edge's inner nodes are read and joined. */
export const innerNodesOf = (edge: string): string => `${edge}#inner`;

/** The key under which the properties map(e, ...) and its kin read of each hop are recorded. */
export const hopsOf = (edge: string): string => `${edge}#hops`;

/** The column of property `prop` of the element a variable (or one hop) matched. */
export const propColumn = (element: string, prop: string): string => `${element}.${prop}`;

/** The variable a pattern element binds: its own name, or a private one for `()` and `-->`. */
export interface Element {
  readonly name: string;
  readonly kind: 'node' | 'edge';
}

/** The partition part of a partitioned graph's node id (partitionedKey: length, ':', partition, ':', id). */
export function partitionOfKey(id: Expr, at: Span): Expr {
  const colon = call('indexof', [id, { kind: 'literal', type: 'string', value: ':', span: at }], at);
  const length = call('toint', [call('substring', [id, long(0n, at), colon], at)], at);
  const prefix = call(
    'substring',
    [id, long(0n, at), binary('+', binary('+', colon, long(1n, at), at), length, at)],
    at,
  );
  // A null id's own key ('-...') has no colon: a partition of its own.
  return call('iff', [binary('<', colon, long(0n, at), at), id, prefix], at);
}
