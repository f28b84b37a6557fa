// Syntax tree of the KQL subset: readonly nodes with a `kind` discriminant and the span they cover.
import type { Span } from './tokens';

export type LiteralKind =
  'string' | 'long' | 'int' | 'real' | 'decimal' | 'bool' | 'datetime' | 'timespan' | 'dynamic' | 'guid';

export type Expr =
  | {
      readonly kind: 'name';
      readonly name: string;
      readonly span: Span;
      /**
       * A user function's parameter or body let read where a row is in scope (expand-udf.ts): the
       * row's column of this name when it has one, else the let named orLet.
       */
      readonly orLet?: string;
    }
  | { readonly kind: 'literal'; readonly type: LiteralKind; readonly value: LiteralValue; readonly span: Span }
  | {
      readonly kind: 'binary';
      readonly op: string;
      readonly left: Expr;
      readonly right: Expr;
      readonly opSpan: Span;
      readonly span: Span;
    }
  | { readonly kind: 'unary'; readonly op: '-' | '+'; readonly operand: Expr; readonly span: Span }
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly nameSpan: Span;
      readonly args: readonly Expr[];
      /**
       * Names of the arguments written `name = value`: in calls of user-defined functions (expand-udf.ts),
       * and of arg_max, arg_min, take_any and take_anyif (the returned column's name, aggregates.ts).
       */
      readonly argNames?: readonly (string | undefined)[];
      readonly span: Span;
    }
  | { readonly kind: 'member'; readonly target: Expr; readonly name: string; readonly span: Span }
  | { readonly kind: 'index'; readonly target: Expr; readonly index: Expr; readonly span: Span }
  | {
      readonly kind: 'in';
      readonly op: string;
      readonly left: Expr;
      readonly values: readonly Expr[];
      readonly opSpan: Span;
      readonly span: Span;
    }
  | {
      readonly kind: 'between';
      readonly negated: boolean;
      readonly left: Expr;
      readonly low: Expr;
      readonly high: Expr;
      readonly span: Span;
    }
  | { readonly kind: 'star'; readonly span: Span }
  /** A tabular expression where a scalar is read from it: toscalar(T), x in (T) (analyze-subquery.ts). */
  | { readonly kind: 'tabular'; readonly pipeline: Pipeline; readonly span: Span };

/** string, long/int (bigint), real (number), bool, datetime/timespan (bigint ticks), dynamic (JSON text), or null. */
export type LiteralValue = string | number | bigint | boolean | null;

export interface NamedExpr {
  readonly name?: string;
  readonly nameSpan?: Span;
  /** `(a, b, ...) = f(...)`: names for the several columns of one call (percentiles, arg_max, series_stats). */
  readonly names?: readonly { readonly name: string; readonly span: Span }[];
  /** One of the columns of the item before (series-stats.ts): it reads the operator's input as that one does. */
  readonly sameInput?: boolean;
  readonly expr: Expr;
  readonly span: Span;
}

export interface SortKey {
  readonly expr: Expr;
  readonly direction?: 'asc' | 'desc';
  readonly nulls?: 'first' | 'last';
  readonly span: Span;
}

export interface ColumnDecl {
  readonly name: string;
  readonly type: string;
  readonly span: Span;
}

export interface NamePattern {
  /** A column name, or a pattern with `*` when wildcard is true. */
  readonly name: string;
  readonly wildcard: boolean;
  readonly span: Span;
}

export type Source =
  | { readonly kind: 'table'; readonly name: string; readonly span: Span }
  | {
      readonly kind: 'datatable';
      readonly columns: readonly ColumnDecl[];
      readonly values: readonly Expr[];
      readonly span: Span;
    }
  | { readonly kind: 'print'; readonly items: readonly NamedExpr[]; readonly span: Span }
  | {
      readonly kind: 'range';
      readonly column: string;
      readonly columnSpan: Span;
      readonly from: Expr;
      readonly to: Expr;
      readonly step: Expr;
      readonly span: Span;
    }
  | { readonly kind: 'union'; readonly union: UnionSpec; readonly span: Span }
  | { readonly kind: 'search'; readonly search: SearchSpec; readonly span: Span }
  | { readonly kind: 'find'; readonly find: FindSpec; readonly span: Span }
  /**
   * `table(Name [, DataScope])`, `database(Name).Table`, `database(Name).table(...)` (parser-scope.ts):
   * expressions until the analyzer resolves them, so that lets and function parameters can name the table.
   */
  | {
      readonly kind: 'tableRef';
      readonly table: Expr;
      readonly dataScope?: Expr;
      readonly database?: Expr;
      readonly span: Span;
    }
  /** A call of a tabular user-defined function, `f(args)`: replaced by its body before analysis (expand-udf.ts). */
  | {
      readonly kind: 'udf';
      readonly name: string;
      readonly nameSpan: Span;
      readonly args: readonly Expr[];
      readonly argNames?: readonly (string | undefined)[];
      readonly span: Span;
    };

/** `find [withsource=Name] [in (Tables)] [where] Predicate [project-smart | project Col[:type], ... [, pack_all()]]` (parser-find.ts). */
export interface FindSpec {
  readonly withSource?: { readonly name: string; readonly span: Span };
  readonly tables?: UnionSpec;
  readonly predicate: Expr;
  /** The `project` list; absent: project-smart. */
  readonly project?: {
    readonly columns: readonly { readonly name: string; readonly type?: string; readonly span: Span }[];
    readonly packAll: boolean;
  };
}

/** `search [kind=case_sensitive] [in (Tables)] Predicate` (search operator docs). */
export interface SearchSpec {
  readonly caseSensitive: boolean;
  readonly tables?: UnionSpec;
  readonly predicate: Expr;
}

export type Operator =
  | { readonly kind: 'where'; readonly predicate: Expr; readonly span: Span }
  /**
   * Written after a tabular argument whose parameter declares columns (expand-udf.ts): the input
   * must hold each of them with its type; it passes its rows on unchanged.
   */
  | {
      readonly kind: 'requireColumns';
      readonly columns: readonly ColumnDecl[];
      readonly function: string;
      readonly parameter: string;
      readonly span: Span;
    }
  | { readonly kind: 'project'; readonly items: readonly NamedExpr[]; readonly span: Span }
  | { readonly kind: 'projectAway'; readonly names: readonly NamePattern[]; readonly span: Span }
  | {
      readonly kind: 'projectRename';
      readonly items: readonly {
        readonly newName: string;
        readonly oldName: string;
        readonly span: Span;
        readonly oldSpan: Span;
      }[];
      readonly span: Span;
    }
  | { readonly kind: 'extend'; readonly items: readonly NamedExpr[]; readonly span: Span }
  | {
      readonly kind: 'summarize';
      readonly aggregates: readonly NamedExpr[];
      readonly by: readonly NamedExpr[];
      readonly span: Span;
    }
  | { readonly kind: 'take'; readonly count: Expr; readonly span: Span }
  | { readonly kind: 'top'; readonly count: Expr; readonly by: readonly SortKey[]; readonly span: Span }
  | { readonly kind: 'sort'; readonly keys: readonly SortKey[]; readonly span: Span }
  | { readonly kind: 'count'; readonly span: Span }
  | { readonly kind: 'distinct'; readonly columns: readonly NamedExpr[] | '*'; readonly span: Span }
  | {
      readonly kind: 'render';
      readonly visualization: string;
      readonly properties: Readonly<Record<string, string>>;
      readonly span: Span;
    }
  | { readonly kind: 'join'; readonly join: JoinSpec; readonly span: Span }
  | { readonly kind: 'serialize'; readonly items: readonly NamedExpr[]; readonly span: Span }
  | { readonly kind: 'union'; readonly union: UnionSpec; readonly span: Span }
  | { readonly kind: 'mvExpand'; readonly mvExpand: MvExpandSpec; readonly span: Span }
  | {
      readonly kind: 'projectKeep' | 'projectReorder';
      readonly names: readonly NamePattern[];
      /** project-reorder's order of each pattern's matches (project-reorder docs); none: input order. */
      readonly orders?: readonly (ReorderOrder | undefined)[];
      readonly span: Span;
    }
  | { readonly kind: 'sampleDistinct'; readonly count: Expr; readonly column: Expr; readonly span: Span }
  | { readonly kind: 'parse'; readonly parse: ParseSpec; readonly span: Span }
  | { readonly kind: 'getschema'; readonly span: Span }
  | { readonly kind: 'sample'; readonly count: Expr; readonly span: Span }
  | {
      readonly kind: 'as';
      readonly name: string;
      readonly nameSpan: Span;
      readonly span: Span;
      /** `as hint.materialized=true`: as if wrapped by materialize() (as operator page). */
      readonly materialized?: true;
    }
  | { readonly kind: 'topNested'; readonly clauses: readonly TopNestedClause[]; readonly span: Span }
  | { readonly kind: 'search'; readonly search: SearchSpec; readonly span: Span }
  | { readonly kind: 'makeSeries'; readonly makeSeries: MakeSeriesSpec; readonly span: Span }
  | { readonly kind: 'mvApply'; readonly mvApply: MvApplySpec; readonly span: Span }
  | { readonly kind: 'scan'; readonly scan: ScanSpec; readonly span: Span }
  | { readonly kind: 'partition'; readonly partition: PartitionSpec; readonly span: Span }
  | { readonly kind: 'topHitters'; readonly topHitters: TopHittersSpec; readonly span: Span }
  | { readonly kind: 'evaluate'; readonly evaluate: EvaluateSpec; readonly span: Span }
  | { readonly kind: 'fork'; readonly word: 'fork' | 'facet'; readonly legs: readonly ForkLeg[]; readonly span: Span }
  | { readonly kind: 'graph'; readonly graph: GraphSpec; readonly span: Span };

/** One result table of `fork (...) ...` or `facet by ...` (parser-fork.ts): operators over the fork's input. */
export interface ForkLeg {
  readonly name?: string;
  readonly operators: readonly Operator[];
  readonly span: Span;
}

/** `evaluate plugin()`: the plugins run here (parser-evaluate.ts). */
/** The evaluate plugins of positional arguments only (analyze-window-plugins.ts and its siblings). */
export const WINDOW_PLUGINS = [
  'sliding_window_counts',
  'rolling_percentile',
  'activity_counts_metrics',
  'activity_metrics',
  'activity_engagement',
  'active_users_count',
  'new_activity_metrics',
  // analyze-ip-lookup.ts, analyze-rows-near.ts, analyze-dcount-intersect.ts
  'ipv4_lookup',
  'ipv6_lookup',
  'rows_near',
  'dcount_intersect',
  // analyze-geo-lookup.ts
  'geo_polygon_lookup',
  'geo_line_lookup',
] as const;
export type WindowPlugin = (typeof WINDOW_PLUGINS)[number];

export type EvaluateSpec =
  | { readonly plugin: 'narrow'; readonly pluginSpan: Span }
  | BagUnpackSpec
  | PivotSpec
  /** analyze-window-plugins.ts: the arguments as written, checked there. */
  | {
      readonly plugin: WindowPlugin;
      readonly pluginSpan: Span;
      readonly args: readonly Expr[];
      readonly argsSpan: Span;
      /** The arguments written `name = value` (the geo lookups' options, analyze-geo-lookup.ts). */
      readonly named?: readonly NamedArgument[];
    };

export interface NamedArgument {
  readonly name: string;
  readonly nameSpan: Span;
  readonly expr: Expr;
}

/** A plugin's `: ([*,] Name:type, ...)` (bag_unpack and pivot docs); `*` keeps the input's columns. */
export interface OutputSchema {
  readonly wildcard: boolean;
  readonly columns: readonly { readonly name: string; readonly type: string; readonly span: Span }[];
}

/** `evaluate bag_unpack(Column [, Prefix] [, columnsConflict=...] [, ignoredProperties=...]) [: Schema]`. */
export interface BagUnpackSpec {
  readonly plugin: 'bag_unpack';
  readonly pluginSpan: Span;
  readonly column: Expr;
  readonly prefix?: Expr;
  readonly conflict?: Expr;
  readonly ignored?: Expr;
  readonly schema?: OutputSchema;
}

/** `evaluate pivot(PivotColumn [, Aggregation(Col)] [, GroupColumn, ...]) [: Schema]`. */
export interface PivotSpec {
  readonly plugin: 'pivot';
  readonly pluginSpan: Span;
  readonly column: Expr;
  readonly aggregation?: Expr;
  readonly groups: readonly Expr[];
  readonly schema?: OutputSchema;
}

/** `top-hitters N of [Name =] Expr [by Sum]` (top-hitters operator docs). */
export interface TopHittersSpec {
  readonly count: Expr;
  readonly value: NamedExpr;
  readonly sum?: Expr;
}

/** `partition [hints] by Column ( Operators )` (partition operator docs): the operators run per key value. */
export interface PartitionSpec {
  readonly key: { readonly name: string; readonly span: Span };
  readonly operators: readonly Operator[];
  /** The legacy form `by Column { SubQueryWithSource }` (analyze-partition-source.ts); operators then empty. */
  readonly source?: Pipeline;
}

/** `scan [with_match_id=Name] [declare (Col:type [= Default], ...)] with (step Name [output=...]: Cond [=> Col = Expr, ...]; ...)`. */
export interface ScanSpec {
  readonly matchId?: { readonly name: string; readonly span: Span };
  readonly declare: readonly {
    readonly name: string;
    readonly type: string;
    readonly default?: Expr;
    readonly span: Span;
  }[];
  readonly steps: readonly ScanStep[];
  /** Inside partition: the (hidden) key column; each key's rows are scanned apart, from an empty state. */
  readonly partitionKey?: string;
}

export interface ScanStep {
  readonly name: string;
  readonly output: 'all' | 'last' | 'none';
  readonly outputSpan?: Span;
  readonly condition: Expr;
  readonly assignments: readonly { readonly name: string; readonly expr: Expr; readonly span: Span }[];
  readonly span: Span;
}

/** `mv-apply [with_itemindex=I] [Name =] Expr [to typeof(T)], ... [limit N] on (Operators)` (mv-apply operator docs). */
export interface MvApplySpec {
  readonly expand: MvExpandSpec;
  /** The sub-query: operators over the implicit source (each input row's expanded sub-table). */
  readonly operators: readonly Operator[];
  readonly onSpan: Span;
}

export type ReorderOrder = 'asc' | 'desc' | 'granny-asc' | 'granny-desc';

/** One level of top-nested: `[N] of [Name =] Expr [with others = ConstExpr] by [Name =] Aggregation [asc|desc]`. */
export interface TopNestedClause {
  readonly count?: Expr;
  readonly key: NamedExpr;
  readonly others?: Expr;
  readonly agg: NamedExpr;
  readonly desc: boolean;
  readonly span: Span;
}

/**
 * `make-series [kind=nonempty] [Name =] Agg(...) [default = v], ... on Axis (from a] [to b] step s |
 * in range(start, stop, step)) [by [Name =] Expr, ...]` (make-series operator docs).
 */
export interface MakeSeriesSpec {
  readonly nonEmpty: boolean;
  readonly aggregates: readonly (NamedExpr & { readonly default?: Expr })[];
  readonly axis: { readonly name: string; readonly span: Span };
  readonly from?: Expr;
  readonly to?: Expr;
  readonly step: Expr;
  /** The alternate `in range(start, stop, step)` form: stop inclusive, bins aligned by bin(), not bin_at(). */
  readonly range: boolean;
  readonly by: readonly NamedExpr[];
}

/** `parse [kind=simple|regex|relaxed] Expr with Part ...` (parse operator docs); parse-where drops rows that do not match. */
export interface ParseSpec {
  readonly mode: 'simple' | 'regex' | 'relaxed';
  /** kind=regex's `flags=` letters (RE2's i, m, s, U), as written. */
  readonly flags?: { readonly letters: string; readonly span: Span };
  readonly where: boolean;
  readonly source: Expr;
  readonly parts: readonly ParsePart[];
}

export type ParsePart =
  | { readonly kind: 'text'; readonly value: string; readonly span: Span }
  | { readonly kind: 'star'; readonly span: Span }
  | { readonly kind: 'column'; readonly name: string; readonly type?: string; readonly span: Span };

/** `mv-expand [kind=bag|array] [with_itemindex=Name] [Name =] Expr [to typeof(T)], ... [limit N]`. */
export interface MvExpandSpec {
  readonly bagKind: 'bag' | 'array';
  readonly itemIndex?: { readonly name: string; readonly span: Span };
  readonly items: readonly (NamedExpr & { readonly toType?: { readonly name: string; readonly span: Span } })[];
  readonly limit?: Expr;
}

/** Join flavors (join-operator docs); `lookup` uses leftouter or inner with its own column rule. */
export type JoinKind =
  | 'innerunique'
  | 'inner'
  | 'leftouter'
  | 'rightouter'
  | 'fullouter'
  | 'leftanti'
  | 'rightanti'
  | 'leftsemi'
  | 'rightsemi';

/** One equality of a join condition: `Key` (same name both sides) or `$left.a == $right.b`. */
export interface JoinCondition {
  readonly left: string;
  readonly right: string;
  readonly leftSpan: Span;
  readonly rightSpan: Span;
  readonly span: Span;
}

export interface JoinSpec {
  /** `lookup` rather than `join`: right key columns are not repeated in the output. */
  readonly lookup: boolean;
  readonly joinKind: JoinKind;
  readonly kindSpan: Span;
  readonly right: Pipeline;
  readonly on: readonly JoinCondition[];
}

/** A union leg: a tabular expression, or a table name pattern with `*` matched against our tables. */
export type UnionLeg =
  | { readonly kind: 'pipeline'; readonly pipeline: Pipeline; readonly name?: string }
  | { readonly kind: 'pattern'; readonly pattern: string; readonly span: Span };

export interface UnionSpec {
  readonly unionKind: 'inner' | 'outer';
  readonly withSource?: { readonly name: string; readonly span: Span };
  readonly legs: readonly UnionLeg[];
  /** isfuzzy=true: legs naming a table that does not exist are left out (analyze-union.ts). */
  readonly fuzzy?: boolean;
}

export interface Pipeline {
  readonly kind: 'pipeline';
  readonly source: Source;
  readonly operators: readonly Operator[];
  readonly span: Span;
}

export interface LetStatement {
  readonly kind: 'let';
  readonly name: string;
  readonly nameSpan: Span;
  readonly value: Expr | Pipeline | FunctionDef;
  readonly span: Span;
  /** `let T = materialize(...)`: every use of T reads one evaluation (materialize function docs). */
  readonly materialized?: boolean;
}

/** One parameter of a user-defined function: a scalar type, or a table with its columns (`*` = any). */
export interface FunctionParam {
  readonly name: string;
  readonly type: string | { readonly columns: readonly ColumnDecl[]; readonly anyColumns: boolean };
  readonly default?: Expr;
  readonly span: Span;
}

/** `let f = [view] (params) { [let ...;] result }` (user-defined functions docs). */
export interface FunctionDef {
  readonly kind: 'function';
  readonly params: readonly FunctionParam[];
  readonly lets: readonly LetStatement[];
  readonly result: Expr | Pipeline;
  readonly span: Span;
  /** `view`: union * and search over all tables read it too (let statement docs). */
  readonly view?: boolean;
}

/** `set name [= value];` (set statement docs): a request property for the query that follows. */
export interface SetStatement {
  readonly kind: 'set';
  readonly name: string;
  readonly nameSpan: Span;
  /** Absent for `set name;`, which sets a boolean property to true. */
  readonly value?: Expr;
  readonly span: Span;
}

/** One `name:type [= default]` of `declare query_parameters(...)` (query parameters declaration docs). */
export interface QueryParameterDecl {
  readonly name: string;
  readonly nameSpan: Span;
  /** The type name as written (`string`, `long`, `datetime`, ...). */
  readonly type: string;
  readonly typeSpan: Span;
  readonly default?: Expr;
}

/** One tabular statement of a batch, with the let statements before it (its scope). */
export interface BatchStatement {
  readonly lets: readonly LetStatement[];
  readonly query: Pipeline;
}

export interface Program {
  readonly lets: readonly LetStatement[];
  readonly query: Pipeline;
  /** The tabular statements after the first of a batch (batches docs); absent for one. */
  readonly batch?: readonly BatchStatement[];
  /** The set statements, in order (statements.ts reads them; absent when there are none). */
  readonly sets?: readonly SetStatement[];
  /** The declared query parameters (statements.ts binds them; absent when there are none). */
  readonly parameters?: readonly QueryParameterDecl[];
}

// Kusto's graph operators (make-graph, graph-to-table and graph-match pages of the Kusto docs). A
// graph is not a table, so the parser reads make-graph together with the graph operator after it
// as one tabular operator whose result is that operator's table (parser-graph.ts).
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
  /** `partitioned-by Column`: a graph per value of the column (of the edges and every nodes table). */
  readonly partitionBy?: GraphName;
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
  /** `as Name`: the name later statements of a batch read the table by. */
  readonly name?: GraphName;
  readonly span: Span;
}

/**
 * `graph-to-table nodes as N ..., edges as E ...`: two tables, each named for the later statements
 * of the batch that read it (result-tables.ts); it ends a statement of its own.
 */
export interface GraphTablesSpec {
  readonly kind: 'toTables';
  readonly nodes: GraphToTableSpec & { readonly name: GraphName };
  readonly edges: GraphToTableSpec & { readonly name: GraphName };
  readonly span: Span;
}

/** The graph a `let` keeps: the graph operator at each use of the let's name ends it (parser-graph-let.ts). */
export interface OpenGraphEnd {
  readonly kind: 'open';
  readonly span: Span;
}

export type EdgeDirection = '->' | '<-' | '--';

export interface PatternNode {
  readonly kind: 'node';
  /** Absent for `()`. */
  readonly name?: GraphName;
  readonly span: Span;
}

/** A hop bound: a whole number, or an expression the analyzer folds to one. */
export type HopBound = number | Expr;

export interface PatternEdge {
  readonly kind: 'edge';
  readonly name?: GraphName;
  readonly direction: EdgeDirection;
  /** `*lo..hi` of a variable-length edge; a bound may be a name of a constant (a let, a function's parameter). */
  readonly hops?: { readonly min: HopBound; readonly max: HopBound; readonly span: Span };
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
  /** graph-shortest-paths: keep the shortest matches per first and last node, any one or all of them. */
  readonly shortest?: 'any' | 'all';
  readonly patterns: readonly GraphPattern[];
  readonly where?: Expr;
  readonly project: readonly NamedExpr[];
  readonly span: Span;
}

export type GraphEnd = GraphToTableSpec | GraphTablesSpec | GraphMatchSpec | OpenGraphEnd;

/** `graph-mark-components [kind=weak|strong] [with_component_id=Name]`: a property per node, its component's index. */
export interface GraphMarkSpec {
  readonly strong: boolean;
  readonly property: string;
  readonly span: Span;
}

export interface GraphSpec {
  readonly make: MakeGraphSpec;
  /** The graph-mark-components between make-graph and the operator that ends the graph, in order. */
  readonly marks: readonly GraphMarkSpec[];
  /** The graph operator that turns the graph into the table the pipeline goes on with. */
  readonly end: GraphEnd;
  /** Tabular operators after the graph operator inside partitioned-by's parentheses: run per partition. */
  readonly partitionOperators?: readonly Operator[];
}
