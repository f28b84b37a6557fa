// Semantic analysis of a parsed program: resolves names against the logical tables, types every
// expression, applies Kusto's column naming, and builds the relational IR. Throws QueryError,
// including the limit codes (depth of stacked operators, depth and terms after name substitution,
// the compile budget). Every per-item step is O(1) amortized: no operator is quadratic in its items.
import { isRandom, structuralKey } from './analyze-random';
import { expandPackArrayStar } from './analyze-star-args';
import { mapChildren, namesIn, readsUnnamedColumns } from './ast-walk';
import type { Expr, JoinSpec, NamedExpr, Operator, Pipeline, Program, SortKey, Source } from './ast';
import { numbering, sortedBack } from './ast-build';
import { analyzeAggregate, type AggregateOutput } from './aggregates';
import { analyzeGraph } from './analyze-graph';
import { analyzeJoin, type TabularHost } from './analyze-join';
import { analyzeMakeSeries } from './analyze-make-series';
import { analyzeMvApply, type MvApplyHost } from './analyze-mv-apply';
import { namedAs } from './column-ifexists';
import { analyzeMvExpand } from './analyze-mv-expand';
import { analyzeParse } from './analyze-parse';
import { analyzePartition } from './analyze-partition';
import { analyzeTopHitters } from './analyze-top-hitters';
import { analyzeEvaluate } from './analyze-evaluate';
import { analyzeFind } from './analyze-find';
import { analyzeScan } from './analyze-scan';
import { scopedTable } from './analyze-scope';
import { requireColumns } from './analyze-udf-columns';
import { checkAccess } from './statements-restrict';
import { graphLetOf } from './parser-graph-let';
import { searchPredicate, searchSource } from './analyze-search';
import { analyzeTopNested } from './analyze-top-nested';
import { analyzeUnion } from './analyze-union';
import { reorderColumns } from './analyze-reorder';
import { analyzeInGroups, expandSeriesStats } from './series-stats';
import { hoistWindows, type WindowHost } from './analyze-window';
import type { BinAuto } from './bin-auto';
import type { QueryIdentity } from './meta-functions';
import type { DiscoveryState } from './discovery';
import { clip, type ErrorFactory } from './errors';
import type { AnalyzedQuery, Assigned, IrAgg, IrColumn, IrExpr, IrSortKey, KqlType, Rel, RenderHint } from './ir';
import type { CompileContext, ExpressionRecords } from './limits';
import { MAX_INT, MIN_INT } from './literals';
import {
  closest,
  ColumnNumbering,
  derivedName,
  matchesWildcard,
  NameAllocator,
  OutputNames,
  type ColumnNumbers,
} from './naming';
import { checkRangeStep, foldConstant, isRowFree } from './range';
import { AGGREGATE_FUNCTIONS, analyzeScalar, convert, type ScalarEnv } from './scalars';
import { isInteger, isNumeric, lit, typeNamed, widerNumeric } from './types';
import { TABLE_NAMES, TABLES, isTableName, type TableName } from '../telemetry/tables';
import type { Span } from './tokens';

export interface AnalyzeOptions {
  readonly nowTicks: bigint;
  /** For bin_auto() (bin-auto.ts). */
  readonly binAuto?: BinAuto;
  /** For current_principal() and current_database() (meta-functions.ts). */
  readonly identity?: QueryIdentity;
  /** Filled with each expression's depth, terms and span (the SQL writer reports its limit at them). */
  readonly records: ExpressionRecords;
  /** The keys found so far for plugins whose columns come from the data (discovery.ts). */
  readonly discovery?: DiscoveryState;
  /** The engine compiled for: graph operators are refused on Timestream (analyze-graph.ts). */
  readonly engine?: 'duckdb' | 'timestream';
}

export function analyze(program: Program, ctx: CompileContext, options: AnalyzeOptions): AnalyzedQuery {
  return new Analyzer(ctx, options).run(program);
}

const colRef = (c: IrColumn): IrExpr => ({ kind: 'col', ref: c.ref, type: c.type });

/** The items with `pack_array(*)` spelled out over the input's columns (analyze-star-args.ts). */
const spellStars = (items: readonly NamedExpr[], columns: readonly IrColumn[]): readonly NamedExpr[] =>
  items.map((i) => {
    const expr = expandPackArrayStar(
      i.expr,
      columns.map((c) => c.name),
    );
    return expr === i.expr ? i : { ...i, expr };
  });

const scanOf = (table: TableName): Rel => ({
  kind: 'scan',
  table,
  columns: TABLES[table].map((c) => ({ name: c.name, type: c.type, ref: c.name })),
});

/** Input columns up to which a name is looked up by a scan rather than a Map (env()). */
const SCANNED_COLUMNS = 32;

/** Operators after which the rows are in a defined order (serialize operator docs; range is a source). */
const SERIALIZING: ReadonlySet<Operator['kind']> = new Set([
  'sort',
  'top',
  'topHitters',
  'serialize',
  'getschema',
  'scan',
]);

/** getschema's DataType: the .NET type Kusto names for each column type (getschema operator docs). */
const DOTNET_TYPES: Readonly<Record<KqlType, string>> = {
  string: 'System.String',
  long: 'System.Int64',
  int: 'System.Int32',
  real: 'System.Double',
  bool: 'System.Boolean',
  datetime: 'System.DateTime',
  timespan: 'System.TimeSpan',
  dynamic: 'System.Object',
  guid: 'System.Guid',
  decimal: 'System.Data.SqlTypes.SqlDecimal',
};
/**
 * Operators that drop their input's serialization: the serialize page's list (count, distinct,
 * evaluate, facet, join, make-series, mv-expand, reduce, sample, sample-distinct, summarize,
 * top-nested), and union, whose page gives no order of its legs' rows. Every other operator keeps
 * it (the serialize page: "All other operators preserve the serialization property"), lookup and
 * mv-apply included: `sort by x | as T | lookup (...) on k | extend prev(x)` reads the sorted rows.
 * A graph operator's output is read from a graph, not from serialized rows.
 */
const DROPS_SERIALIZATION: ReadonlySet<Operator['kind']> = new Set([
  'count',
  'distinct',
  'evaluate',
  'fork',
  'makeSeries',
  'mvExpand',
  'sample',
  'sampleDistinct',
  'summarize',
  'topNested',
  'union',
  'graph',
]);

/**
 * Whether `op` over serialized rows leaves them serialized (DROPS_SERIALIZATION; a join but not a
 * lookup). A partition has its own rule (serialPartition below): its rows come key by key.
 */
const keepsSerialization = (op: Operator): boolean =>
  op.kind === 'join' ? op.join.lookup : op.kind !== 'partition' && !DROPS_SERIALIZATION.has(op.kind);

/** The hidden name of an aggregate inside a summarize expression (aggregateExpression: NUL, agg, a number). */
// eslint-disable-next-line no-control-regex
const HIDDEN_AGGREGATE = /\u0000agg\d+/g;

/**
 * Aggregations whose name a naming function over them does not pass on (Kusto.Language names
 * tostring(take_any(s)) and tostring(percentile(x, 50)) Column1, where tostring(any(s)) is any_s).
 */
const UNPASSED_NAMES: ReadonlySet<string> = new Set([
  'take_any',
  'percentile',
  'percentilew',
  'percentiles',
  'percentilesw',
  'arg_max',
  'arg_min',
]);

class Analyzer implements TabularHost, WindowHost, MvApplyHost {
  readonly errors: ErrorFactory;
  /** Relations whose row order window functions may use. */
  // Maps and Sets, not weak ones: they live for one compile, and their get and set cost less.
  private readonly serialized = new Set<Rel>();
  /** Sub-tables of partition and mv-apply: the hidden key column whose values window functions run apart. */
  private readonly windowGroups = new Map<Rel, string>();
  private readonly lets = new Map<string, IrExpr>();
  private readonly tabularLets = new Map<string, Rel>();
  /** Unnamed columns are numbered across the query (naming.ts). */
  private readonly columnNumbering = new ColumnNumbering();
  /** Names of graph lets in scope (parser-graph-let.ts): read only by a graph operator after them. */
  private readonly graphLets = new Set<string>();
  private readonly materialized = new Set<Rel>();
  /** The random scalar sub-queries by their structure: each computed once (onceIfRandom). */
  private readonly randomScalars = new Map<string, Rel>();
  private readonly materializedLets = new Map<Rel, number>();
  /** The name `as` gave a relation: a union leg's name in withsource= (as operator docs). */
  private readonly asNames = new Map<Rel, string>();
  /** Tabular operators stacked on the source of each relation (through let tables). */
  private readonly relDepths = new Map<Rel, number>();
  private refCounter = 0;
  /** The deepest toscalar() / in (T) query read by the operator being analyzed. */
  private subqueryDepth = 0;
  /** scalarSubquery bound once per compile for every scalar environment (not a closure per env). */
  private readonly boundSubquery: (p: Pipeline) => Rel;

  constructor(
    private readonly ctx: CompileContext,
    private readonly options: AnalyzeOptions,
  ) {
    this.errors = ctx.errors;
    this.boundSubquery = this.scalarSubquery.bind(this);
  }

  run(program: Program): AnalyzedQuery {
    // A graph let's private lets (its edges, its nodes tables) read the names as they were before it.
    let pendingGraph: string | undefined;
    for (const stmt of program.lets) {
      const graph = graphLetOf(stmt.name);
      if (pendingGraph !== undefined && graph !== pendingGraph) this.declareGraphLet(pendingGraph);
      pendingGraph = graph;
      if (graph === undefined) this.graphLets.delete(stmt.name);
      if (stmt.value.kind === 'function') continue; // expanded into its calls before analysis (expand-udf.ts)
      if (stmt.value.kind === 'pipeline') {
        const { rel, renderHint } = this.pipeline(stmt.value);
        if (renderHint) throw this.errors.semantic('render is only allowed at the end of the query', stmt.value.span);
        this.tabularLets.set(stmt.name, rel);
        if (stmt.materialized) {
          this.materialized.add(rel);
          this.materializedLets.set(rel, stmt.nameSpan.start);
        }
      } else {
        // A timespan finer than a microsecond is kept exact: each use folds or refuses it (scalars.ts).
        const value = analyzeScalar(stmt.value, this.env([]), 0, true);
        this.lets.set(stmt.name, value);
      }
    }
    if (pendingGraph !== undefined) this.declareGraphLet(pendingGraph);
    return {
      ...this.pipeline(program.query),
      materialized: this.materialized,
      materializedLets: this.materializedLets,
    };
  }

  /**
   * A graph let (bound under private names, parser-graph-let.ts) hides every earlier table or let
   * of its own name from the statements after it; a later let of that name is no longer a graph.
   */
  private declareGraphLet(graph: string): void {
    this.graphLets.add(graph);
    this.tabularLets.delete(graph);
    this.lets.delete(graph);
  }

  /**
   * The name a piped search writes in $table: the table, tabular let or `as` name its input is,
   * else "" (the search page says a composite input gets "some system-generated name", which it
   * does not give).
   */
  private searchedName(input: Rel): string {
    if (input.kind === 'scan') return input.table;
    const asName = this.asNames.get(input);
    if (asName !== undefined) return asName;
    // '#' and '\u0000' start the names the compiler binds itself (mv-apply's rows): no name a user wrote.
    for (const [name, rel] of this.tabularLets)
      if (rel === input && !name.startsWith('#') && !name.startsWith('\u0000')) return name;
    return '';
  }

  get engine(): 'duckdb' | 'timestream' | undefined {
    return this.options.engine;
  }

  materialize(rel: Rel): void {
    this.materialized.add(rel);
  }

  newRef(): string {
    this.refCounter++;
    return `_c${this.refCounter}`;
  }

  /**
   * Names resolve to the operator's input columns (first of a name wins), looked up in O(1): a scan
   * of at most SCANNED_COLUMNS columns (cheaper than building a Map for the few names of one
   * operator), a Map beyond.
   */
  env(columns: readonly IrColumn[], local?: ReadonlyMap<string, IrExpr>): ScalarEnv {
    let byName: Map<string, IrColumn> | undefined;
    return this.envWith(
      (name) => {
        const l = local?.get(name);
        if (l) return l;
        if (columns.length <= SCANNED_COLUMNS) {
          for (const c of columns) if (c.name === name) return colRef(c);
          return undefined;
        }
        if (!byName) {
          byName = new Map();
          for (const c of columns) if (!byName.has(c.name)) byName.set(c.name, c);
        }
        const c = byName.get(name);
        return c ? colRef(c) : undefined;
      },
      () => columns.map((c) => c.name),
      columns,
    );
  }

  private envWith(
    resolve: ScalarEnv['resolve'],
    columnNames: ScalarEnv['columnNames'],
    inputColumns?: readonly IrColumn[],
  ): ScalarEnv {
    return {
      inputColumns,
      errors: this.errors,
      lets: this.lets,
      nowTicks: this.options.nowTicks,
      binAuto: this.options.binAuto,
      identity: this.options.identity,
      ctx: this.ctx,
      records: this.options.records,
      resolve,
      columnNames,
      subquery: this.boundSubquery,
    };
  }

  /** toscalar() / in (T): the relation, its depth counted for the operator being analyzed. */
  private scalarSubquery(p: Pipeline): Rel {
    const rel = this.onceIfRandom(this.subquery(p));
    this.subqueryDepth = Math.max(this.subqueryDepth, this.relDepths.get(rel) ?? 0);
    return rel;
  }

  /**
   * A scalar sub-query (toscalar(), in (T)) is computed once however often the query reads it: the
   * named-expressions page's `let y = () {toscalar(rand(1000))}; print y, y` prints one value twice.
   * One that picks at random is written once (a materialized CTE on DuckDB), and the same text read
   * again (a function's body at another call) reads that one.
   */
  private onceIfRandom(rel: Rel): Rel {
    if (this.options.engine !== 'duckdb' || !isRandom(rel)) return rel;
    const key = structuralKey(rel);
    const seen = this.randomScalars.get(key);
    if (seen) return seen;
    this.randomScalars.set(key, rel);
    this.materialized.add(rel);
    return rel;
  }

  private pipeline(p: Pipeline): { rel: Rel; renderHint?: RenderHint } {
    let rel = this.source(p.source);
    let depth = this.relDepths.get(rel) ?? this.nestedDepth(rel, 0);
    if (depth > this.ctx.limits.maxDepth) {
      this.ctx.exceeded(
        'QUERY_TOO_DEEP',
        `${depth} tabular operators stacked on one source (sub-queries of join and union included)`,
        this.ctx.limits.maxDepth,
        p.source.span,
      );
    }
    const spans = this.options.records.spans;
    if (!spans.has(rel)) spans.set(rel, p.source.span);
    let renderHint: RenderHint | undefined;
    p.operators.forEach((op, i) => {
      if (op.kind === 'render') {
        if (i !== p.operators.length - 1)
          throw this.errors.semantic('render must be the last operator of the query', op.span);
        renderHint = { visualization: op.visualization, properties: op.properties };
        return;
      }
      // Each operator nests the SQL one subquery deeper (at most): stacked operators count as depth.
      if (++depth > this.ctx.limits.maxDepth) {
        this.ctx.exceeded(
          'QUERY_TOO_DEEP',
          `${depth} tabular operators stacked on one source (let tables included)`,
          this.ctx.limits.maxDepth,
          op.span,
        );
      }
      this.ctx.budget.tick(op.span.start);
      const wasSerialized = this.serialized.has(rel);
      const outerSubqueries = this.subqueryDepth;
      this.subqueryDepth = 0;
      rel = this.operator(rel, op);
      // toscalar() and in (T) nest their query inside this operator's SQL: one level over it.
      depth = Math.max(this.nestedDepth(rel, depth), this.subqueryDepth === 0 ? 0 : this.subqueryDepth + 1);
      this.subqueryDepth = outerSubqueries;
      if (depth > this.ctx.limits.maxDepth) {
        this.ctx.exceeded(
          'QUERY_TOO_DEEP',
          `${depth} tabular operators stacked on one source (sub-queries of join and union included)`,
          this.ctx.limits.maxDepth,
          op.span,
        );
      }
      if (SERIALIZING.has(op.kind) || (wasSerialized && keepsSerialization(op)) || this.serialPartition(op, rel))
        this.serialized.add(rel);
      this.relDepths.set(rel, depth);
      if (!spans.has(rel)) spans.set(rel, op.span);
    });
    return renderHint ? { rel, renderHint } : { rel };
  }

  /**
   * A partition whose sub-query leaves its rows serialized (a sort, top or scan inside, as the functions
   * library's time-weighted pages end theirs before reading next()) gives them in that order, key by key:
   * the serialize page lists partition neither among the operators that serialize nor those that do not.
   */
  private serialPartition(op: Operator, rel: Rel): boolean {
    return op.kind === 'partition' && rel.kind === 'project' && this.serialized.has(rel.input);
  }

  /** A join or union sits one level over its deepest input: their sub-queries count as stacked operators. */
  private nestedDepth(rel: Rel, depth: number): number {
    const inputs = rel.kind === 'join' ? [rel.right] : rel.kind === 'union' ? rel.legs.map((l) => l.rel) : [];
    return inputs.reduce((d, r) => Math.max(d, (this.relDepths.get(r) ?? 0) + 1), depth);
  }

  isSerialized(rel: Rel): boolean {
    return this.serialized.has(rel);
  }

  groupWindows(rel: Rel, key: string): void {
    this.windowGroups.set(rel, key);
  }

  windowGroup(input: Rel): IrExpr | undefined {
    const key = this.windowGroups.get(input);
    const column = key === undefined ? undefined : input.columns.find((c) => c.name === key);
    return column && colRef(column);
  }

  bindTable(name: string, rel: Rel | undefined): void {
    if (rel) this.tabularLets.set(name, rel);
    else this.tabularLets.delete(name);
  }

  nameOf(rel: Rel): string | undefined {
    return this.asNames.get(rel);
  }

  subquery(p: Pipeline): Rel {
    const { rel, renderHint } = this.pipeline(p);
    if (renderHint) throw this.errors.semantic('render is only allowed at the end of the query', p.span);
    return rel;
  }

  // ---------------------------------------------------------------- sources
  private source(s: Source): Rel {
    switch (s.kind) {
      case 'table': {
        // A graph let's use reads its edges under a private name (parser-graph-let.ts): the
        // restrict statement hides or allows it by the let's own name.
        checkAccess(this.ctx, graphLetOf(s.name) ?? s.name, s.span);
        if (this.graphLets.has(s.name))
          throw this.errors.semantic(
            `'${s.name}' is a graph (its let ends in make-graph), not a table: only a graph operator reads it (${s.name} | graph-match ..., ${s.name} | graph-to-table ...)`,
            s.span,
          );
        const let_ = this.tabularLets.get(s.name);
        if (let_) return let_;
        if (isTableName(s.name)) return scanOf(s.name);
        if (this.lets.has(s.name)) throw this.errors.semantic(`'${s.name}' is a scalar, not a table`, s.span);
        const hint = closest(s.name, [...TABLE_NAMES, ...this.tabularLets.keys()]);
        throw this.errors.semantic(`unknown table '${clip(s.name)}'${hint ? `; did you mean '${hint}'?` : ''}`, s.span);
      }
      case 'tableRef': {
        const named = scopedTable(
          this.errors,
          s,
          (e) => analyzeScalar(e, this.env([])),
          this.options.identity,
          this.ctx.databaseAliases,
        );
        if (named.databaseOnly) checkAccess(this.ctx, named.name, s.table.span);
        const rel = named.databaseOnly
          ? isTableName(named.name)
            ? scanOf(named.name)
            : undefined
          : this.source({ kind: 'table', name: named.name, span: s.table.span });
        // A table's own scan (a new one per reference) carries its name into union's withsource=.
        if (rel?.kind === 'scan') this.asNames.set(rel, named.name);
        if (rel) return rel;
        const hint = closest(named.name, TABLE_NAMES);
        throw this.errors.semantic(
          `unknown table '${clip(named.name)}' in the database${hint ? `; did you mean '${hint}'?` : ''}`,
          s.table.span,
        );
      }
      case 'datatable':
        return this.datatable(s);
      case 'print': {
        const columns: IrColumn[] = [];
        const exprs: IrExpr[] = [];
        const taken = new Set<string>();
        // series_stats() and series_fit_line() give several columns in print as in extend; print_N
        // counts the items as written. Nothing else names a print column: print has no input columns,
        // so a name there is a let variable's, and Kusto.Language (and the parse_json page, `let d=...;
        // print d`) names it print_N, likewise tostring(d), d.a, strlen(d).
        const items = s.items.flatMap((written, i) =>
          expandSeriesStats([written], this.errors).map((item) => ({ item, i })),
        );
        items.forEach(({ item, i }) => {
          const expr = analyzeScalar(item.expr, this.env([]));
          const name = item.name ?? `print_${i}`;
          if (taken.has(name))
            throw this.errors.semantic(`duplicate column name '${name}'`, item.nameSpan ?? item.span);
          taken.add(name);
          columns.push({ name, type: expr.type, ref: this.newRef() });
          exprs.push(expr);
        });
        return { kind: 'print', columns, exprs };
      }
      case 'range': {
        const env = this.env([]);
        const from = analyzeScalar(s.from, env);
        const to = analyzeScalar(s.to, env);
        const step = analyzeScalar(s.step, env);
        for (const [e, x] of [
          [from, s.from],
          [to, s.to],
          [step, s.step],
        ] as const) {
          if (!isRowFree(e))
            throw this.errors.unsupported('range bounds and step must be constants or toscalar() values', x.span);
        }
        let type: KqlType;
        if (isNumeric(from.type) && isNumeric(to.type) && isNumeric(step.type))
          type = widerNumeric(widerNumeric(from.type, to.type), step.type);
        else if (from.type === 'datetime' && to.type === 'datetime' && step.type === 'timespan') type = 'datetime';
        else if (from.type === 'timespan' && to.type === 'timespan' && step.type === 'timespan') type = 'timespan';
        else throw this.errors.semantic(`range cannot go from ${from.type} to ${to.type} by ${step.type}`, s.span);
        if (type === 'int') type = 'long';
        checkRangeStep(this.errors, { from, to, step }, { from: s.from.span, to: s.to.span, step: s.step.span });
        const rel: Rel = { kind: 'range', columns: [{ name: s.column, type, ref: this.newRef() }], from, to, step };
        this.serialized.add(rel);
        return rel;
      }
      case 'union':
        return analyzeUnion(this, undefined, s.union, s.span);
      case 'udf': // expanded before analysis (expand-udf.ts): only a call of an unknown function is left
        throw this.errors.semantic(`unknown function '${clip(s.name)}'`, s.nameSpan);
      case 'find':
        return analyzeFind(this, s.find, s.span);
      case 'search': {
        const input = searchSource(this, s.search, s.span);
        return this.operator(input, { kind: 'where', predicate: searchPredicate(this.errors, s.search), span: s.span });
      }
    }
  }

  private datatable(s: Source & { kind: 'datatable' }): Rel {
    const columns: IrColumn[] = s.columns.map((c) => {
      const type = typeNamed(c.type, true);
      if (!type) throw this.errors.unsupported(`the column type '${c.type}' is not supported in datatable`, c.span);
      return { name: c.name, type, ref: this.newRef() };
    });
    const names = new Set<string>();
    s.columns.forEach((c) => {
      if (names.has(c.name)) throw this.errors.semantic(`duplicate column name '${c.name}'`, c.span);
      names.add(c.name);
    });
    if (s.values.length % columns.length !== 0) {
      throw this.errors.semantic(
        `datatable has ${s.values.length} values, not a multiple of its ${columns.length} columns`,
        s.span,
      );
    }
    const rows: IrExpr[][] = [];
    const env = this.env([]);
    for (let i = 0; i < s.values.length; i += columns.length) {
      rows.push(
        columns.map((c, j) => {
          const node = s.values[i + j]!;
          const v = analyzeScalar(node, env);
          if (v.kind !== 'lit') throw this.errors.semantic('datatable values must be literals', node.span);
          return this.coerceLiteral(v, c.type, node.span);
        }),
      );
    }
    return { kind: 'values', columns, rows };
  }

  private coerceLiteral(v: IrExpr & { kind: 'lit' }, type: KqlType, span: Span): IrExpr {
    if (v.type === type) return v;
    if (v.value === null) return lit(type, null);
    if ((type === 'real' || type === 'decimal') && isNumeric(v.type)) return lit(type, Number(v.value));
    if (isInteger(type) && isInteger(v.type)) {
      // An int column cannot hold a long beyond 32 bits (the engine's cast failed with an internal error).
      const outside = type === 'int' && typeof v.value === 'bigint' && (v.value < MIN_INT || v.value > MAX_INT);
      if (outside) throw this.errors.semantic(`${v.value} does not fit an int column (32 bits)`, span);
      return lit(type, v.value);
    }
    if (type === 'dynamic') {
      const json = typeof v.value === 'bigint' ? v.value.toString() : JSON.stringify(v.value);
      if (v.type === 'string' || v.type === 'bool' || isNumeric(v.type)) return lit('dynamic', json);
    }
    throw this.errors.semantic(`a ${v.type} value cannot go into a ${type} column`, span);
  }

  // ---------------------------------------------------------------- operators
  /**
   * A where right after an innerunique join that reads only left columns filters the left input
   * before its keys are deduplicated, as Kusto propagates it: the join-innerunique page's
   * `t1 | join kind=innerunique t2 on key | where value == "val1.2"` always gives the val1.2 rows.
   * Undefined when the predicate reads a right column (or a left one the join does not output), or
   * columns it does not name (`* has "x"`, pack_all()).
   */
  private filterBeforeUniqueJoin(input: Rel, where: Operator & { kind: 'where' }): Rel | undefined {
    if (input.kind !== 'join' || input.joinKind !== 'innerunique' || readsUnnamedColumns(where.predicate))
      return undefined;
    const sideOf = new Map(input.output.map((o) => [o.column.name, o.side]));
    const leftNames = new Set(input.left.columns.map((c) => c.name));
    for (const name of namesIn(where.predicate)) {
      const side = sideOf.get(name);
      if (side === 'right' || (side === undefined && leftNames.has(name))) return undefined;
    }
    return { ...input, left: this.operator(input.left, where) };
  }

  private operator(input: Rel, op: Operator): Rel {
    const cols = input.columns;
    switch (op.kind) {
      case 'requireColumns':
        requireColumns(this.errors, cols, op);
        return input;
      case 'where': {
        const w = hoistWindows(this, input, [op.predicate], this.serialized.has(input));
        if (w.rel !== input) {
          let predicate = analyzeScalar(w.exprs[0]!, this.env(w.rel.columns, w.hidden));
          if (predicate.type === 'dynamic') predicate = convert(predicate, 'bool');
          if (predicate.type !== 'bool')
            throw this.errors.semantic(
              `the where predicate must be a bool expression, got ${predicate.type}`,
              op.predicate.span,
            );
          return this.passthrough({ kind: 'filter', input: w.rel, predicate, columns: w.rel.columns }, [...cols]);
        }
        const pushed = this.filterBeforeUniqueJoin(input, op);
        if (pushed) return pushed;
        let predicate = analyzeScalar(op.predicate, this.env(cols));
        if (predicate.type === 'dynamic') predicate = convert(predicate, 'bool');
        if (predicate.type !== 'bool')
          throw this.errors.semantic(
            `the where predicate must be a bool expression, got ${predicate.type}`,
            op.predicate.span,
          );
        return { kind: 'filter', input, predicate, columns: cols };
      }
      case 'extend':
      case 'serialize':
        return op.items.length === 0
          ? input
          : this.extend(
              input,
              expandSeriesStats(op.items, this.errors),
              op.kind === 'serialize' || this.serialized.has(input),
            );
      case 'project':
        return this.project(input, expandSeriesStats(op.items, this.errors));
      case 'join':
        return op.join.lookup && this.serialized.has(input)
          ? this.lookupInOrder(input, op.join, op.span)
          : analyzeJoin(this, input, op.join);
      case 'union':
        return analyzeUnion(this, input, op.union, op.span);
      case 'mvExpand':
        return analyzeMvExpand(this, input, op.mvExpand);
      case 'parse':
        return analyzeParse(this, input, op.parse);
      case 'sample':
        return { kind: 'sample', input, count: this.constantCount(op.count), columns: cols };
      case 'getschema': {
        // The schema is known here: a table of constants, whatever the rows.
        const columns: IrColumn[] = [
          { name: 'ColumnName', type: 'string', ref: this.newRef() },
          { name: 'ColumnOrdinal', type: 'long', ref: this.newRef() },
          { name: 'DataType', type: 'string', ref: this.newRef() },
          { name: 'ColumnType', type: 'string', ref: this.newRef() },
        ];
        const rows = cols.map((c, i) => [
          lit('string', c.name),
          lit('long', BigInt(i)),
          lit('string', DOTNET_TYPES[c.type]),
          lit('string', c.type),
        ]);
        return { kind: 'values', columns, rows };
      }
      case 'sampleDistinct': // distinct values of the column, at most N of them (sample-distinct docs)
        return this.operator(
          this.operator(input, {
            kind: 'distinct',
            columns: [{ expr: op.column, span: op.column.span }],
            span: op.span,
          }),
          { kind: 'take', count: op.count, span: op.span },
        );
      case 'projectKeep':
      case 'projectReorder': {
        if (op.kind === 'projectReorder' && op.orders)
          return this.passthrough(input, reorderColumns(this, cols, op.names, op.orders));
        // Columns named (a pattern's matches in input order); project-keep keeps only them,
        // project-reorder puts them first and the others after, in input order.
        const picked = new Set<IrColumn>();
        const byName = new Map(cols.map((c) => [c.name, c]));
        for (const p of op.names) {
          if (!p.wildcard) {
            const c = byName.get(p.name);
            if (!c) throw this.unknownColumn(p.name, cols, p.span);
            picked.add(c);
            continue;
          }
          for (const c of cols) {
            this.ctx.budget.tick(p.span.start);
            if (matchesWildcard(p.name, c.name)) picked.add(c);
          }
        }
        if (op.kind === 'projectReorder')
          return this.passthrough(input, [...picked, ...cols.filter((c) => !picked.has(c))]);
        const kept = cols.filter((c) => picked.has(c));
        if (kept.length === 0) throw this.errors.semantic('project-keep would remove every column', op.span);
        return this.passthrough(input, kept);
      }
      case 'projectAway': {
        const drop = new Set<string>();
        const byName = new Map(cols.map((c) => [c.name, c]));
        for (const p of op.names) {
          if (!p.wildcard) {
            const c = byName.get(p.name);
            // A pattern that matches nothing is fine; a plain name must exist.
            if (!c) throw this.unknownColumn(p.name, cols, p.span);
            drop.add(c.ref);
            continue;
          }
          for (const c of cols) {
            this.ctx.budget.tick(p.span.start);
            if (matchesWildcard(p.name, c.name)) drop.add(c.ref);
          }
        }
        const kept = cols.filter((c) => !drop.has(c.ref));
        if (kept.length === 0) throw this.errors.semantic('project-away would remove every column', op.span);
        return this.passthrough(input, kept);
      }
      case 'projectRename': {
        const out = [...cols];
        const position = new Map(out.map((c, i) => [c.name, i]));
        for (const item of op.items) {
          const idx = position.get(item.oldName);
          if (idx === undefined) throw this.unknownColumn(item.oldName, out, item.oldSpan);
          const other = position.get(item.newName);
          if (other !== undefined && other !== idx)
            throw this.errors.semantic(`a column named '${clip(item.newName)}' already exists`, item.span);
          out[idx] = { ...out[idx]!, name: item.newName };
          position.delete(item.oldName);
          position.set(item.newName, idx);
        }
        return this.passthrough(input, out);
      }
      case 'summarize':
        return this.summarize(input, op.aggregates, op.by, op.span);
      case 'count':
        return this.withColumns({
          kind: 'aggregate',
          input,
          keys: [],
          aggs: [
            {
              column: { name: 'Count', type: 'long', ref: this.newRef() },
              value: { fn: 'count', args: [], type: 'long' },
            },
          ],
        });
      case 'take':
        return { kind: 'limit', input, count: this.constantCount(op.count), columns: cols };
      case 'top': {
        const count = this.constantCount(op.count);
        const sorted = this.sort(input, op.by);
        return { kind: 'limit', input: sorted, count, columns: cols };
      }
      case 'sort':
        return this.sort(input, op.keys);
      case 'distinct': {
        if (op.columns === '*') return { kind: 'distinct', input, columns: cols };
        const picked = new Set<IrColumn>();
        const byName = new Map(cols.map((c) => [c.name, c]));
        // Expressions (`distinct x % 2`, `distinct n = strlen(k)`): Kusto.Language reads them as the
        // keys of a summarize, named as summarize names them (Column1, strlen_k, n).
        if (op.columns.some((item) => item.name !== undefined || item.expr.kind !== 'name'))
          return this.summarize(input, [], op.columns, op.span);
        for (const item of op.columns) {
          if (item.expr.kind !== 'name') continue;
          const c = byName.get(item.expr.name);
          if (!c) throw this.unknownColumn(item.expr.name, cols, item.span);
          picked.add(c);
        }
        return { kind: 'distinct', input, columns: [...picked] };
      }
      case 'render':
        return input;
      case 'search': {
        const found = this.operator(input, {
          kind: 'where',
          predicate: searchPredicate(this.errors, op.search),
          span: op.span,
        });
        if (cols.some((c) => c.name === '$table')) return found;
        // The search page: the output always has a string column $table first, the name of the
        // table the row came from, as Kusto.Language types a piped search too.
        const at = op.span;
        const name: Expr = { kind: 'literal', type: 'string', value: this.searchedName(input), span: at };
        const tagged = this.operator(found, {
          kind: 'extend',
          items: [{ name: '$table', expr: name, span: at }],
          span: at,
        });
        return this.operator(tagged, {
          kind: 'projectReorder',
          names: [{ name: '$table', wildcard: false, span: at }],
          span: at,
        });
      }
      case 'topNested':
        return analyzeTopNested(this, input, op.clauses);
      case 'as': {
        // A name for the input from here on (as operator docs): later operators and sub-queries read it.
        const named = this.passthrough(input, [...cols]);
        this.tabularLets.set(op.name, named);
        this.asNames.set(named, op.name);
        return named;
      }
      case 'makeSeries':
        return analyzeMakeSeries(this, input, op.makeSeries);
      case 'mvApply':
        return analyzeMvApply(this, input, op.mvApply, op.span);
      case 'scan':
        return analyzeScan(this, input, op.scan);
      case 'partition':
        return analyzePartition(this, input, op.partition, op.span);
      case 'topHitters':
        return analyzeTopHitters(this, input, op.topHitters, op.span);
      case 'evaluate':
        return analyzeEvaluate(this, input, op.evaluate, op.span, this.options.discovery);
      case 'graph':
        return analyzeGraph(this, input, op.graph, op.span);
      case 'fork':
        // The last operator of the query is split into its result tables before analysis (index.ts).
        throw this.errors.semantic(`${op.word} ends the query: its result tables cannot be read by other operators`, {
          start: op.span.start,
          end: op.span.start + op.word.length,
        });
    }
  }

  /**
   * lookup over serialized rows keeps them serialized (serialize page), but the SQL join keeps no row
   * order: the rows are numbered first and sorted back by that number after.
   */
  private lookupInOrder(input: Rel, spec: JoinSpec, span: Span): Rel {
    const nth = `\u0000lookup row ${this.newRef()}`;
    const joined = analyzeJoin(this, this.operator(input, numbering(nth, span)), spec);
    return sortedBack(nth, span).reduce((rel, op) => this.operator(rel, op), joined);
  }

  private withColumns(r: { kind: 'aggregate'; input: Rel; keys: Assigned<IrExpr>[]; aggs: Assigned<IrAgg>[] }): Rel {
    // Spelled out, not spread: this runs for every summarize and count.
    const columns = [...r.keys.map((k) => k.column), ...r.aggs.map((a) => a.column)];
    return { kind: r.kind, input: r.input, keys: r.keys, aggs: r.aggs, columns };
  }

  private passthrough(input: Rel, columns: IrColumn[]): Rel {
    return {
      kind: 'project',
      input,
      items: columns.map((c) => ({ column: c, value: { kind: 'col', ref: c.ref, type: c.type } })),
      columns,
    };
  }

  unknownColumn(name: string, cols: readonly IrColumn[], span: Span, where?: string): Error {
    const hint = closest(
      name,
      cols.map((c) => c.name),
    );
    return this.errors.semantic(
      `unknown column '${clip(name)}'${where ? ` ${where}` : ''}${hint ? `; did you mean '${hint}'?` : ''}`,
      span,
    );
  }

  /** The numbers of the unnamed columns of the operator at `at` (its span's start). */
  columnNumbers(at: number): ColumnNumbers {
    return this.columnNumbering.at(at);
  }

  constantCount(e: Expr): bigint {
    const v = analyzeScalar(e, this.env([]));
    // A conversion of a constant (`let n = toint(5);`) folds to it as Kusto.Language accepts it.
    const count = isInteger(v.type) ? foldConstant(v) : undefined;
    if (typeof count !== 'bigint') throw this.errors.semantic('expected a constant integer row count', e.span);
    if (count < 0n) throw this.errors.semantic('the row count cannot be negative', e.span);
    return count;
  }

  private extend(original: Rel, given: readonly NamedExpr[], serialized: boolean): Rel {
    const items = spellStars(given, original.columns);
    const w = hoistWindows(
      this,
      original,
      items.map((i) => i.expr),
      serialized,
    );
    const input = w.rel;
    const out: IrColumn[] = [...input.columns];
    const position = new Map<string, number>();
    out.forEach((c, i) => {
      if (!position.has(c.name)) position.set(c.name, i);
    });
    const values = new Map<string, IrExpr>(input.columns.map((c) => [c.ref, colRef(c)]));
    const local = new Map<string, IrExpr>(w.hidden);
    const names = new NameAllocator(position.keys());
    const numbers = this.columnNumbers(given[0]?.span.start ?? 0);
    const env = this.envWith(
      (name) => {
        const l = local.get(name);
        if (l) return l;
        const i = position.get(name);
        return i === undefined ? undefined : colRef(out[i]!);
      },
      () => out.map((c) => c.name),
      input.columns,
    );
    // Kusto.Language refuses a name written twice in one extend (KS171 "already declared") rather
    // than letting the second win; a later extend may still replace it.
    const written = new Set<string>();
    const analyzed = analyzeInGroups(items, (i) => analyzeScalar(w.exprs[i]!, env));
    items.forEach((item, i) => {
      if (item.name !== undefined) {
        if (written.has(item.name))
          throw this.errors.semantic(`duplicate column name '${clip(item.name)}'`, item.nameSpan ?? item.span);
        written.add(item.name);
      }
      const expr = analyzed(i);
      // A derived name that is already a column replaces it in place, as a written one does (extend docs:
      // names that exist in the input are replaced; Kusto.Language: extend tostring(x) retypes x).
      const derived = item.name === undefined ? derivedName(namedAs(item.expr, (n) => position.has(n))) : undefined;
      const name =
        item.name ??
        (derived === undefined ? names.nextColumnN(numbers) : position.has(derived) ? derived : names.unique(derived));
      const column: IrColumn = { name, type: expr.type, ref: this.newRef() };
      const idx = position.get(name);
      if (idx !== undefined) {
        values.delete(out[idx]!.ref);
        out[idx] = column;
      } else {
        position.set(name, out.length);
        out.push(column);
      }
      // Column{k} skips the input's names and the generated ones before it, not the names written in
      // this extend: Kusto.Language names `extend Column1 = 5, v + 1` one column, Column1, the later
      // one replacing the earlier as any name met again in an extend does.
      if (item.name === undefined) names.add(name);
      values.set(column.ref, expr);
      local.set(name, expr);
    });
    const visible = w.hiddenRefs.size === 0 ? out : out.filter((c) => !w.hiddenRefs.has(c.ref));
    return {
      kind: 'project',
      input,
      items: visible.map((c) => ({ column: c, value: values.get(c.ref)! })),
      columns: visible,
    };
  }

  private project(original: Rel, given: readonly NamedExpr[]): Rel {
    const items = spellStars(given, original.columns);
    const w = hoistWindows(
      this,
      original,
      items.map((i) => i.expr),
      this.serialized.has(original),
    );
    const input = w.rel;
    const out: Assigned<IrExpr>[] = [];
    const local = new Map<string, IrExpr>(w.hidden);
    const names = new OutputNames(this.columnNumbers(given[0]?.span.start ?? 0));
    // Names written in the query (x = ..., or a bare column x): two of them clash; a bare column that
    // meets a name derived from an expression (round(x), x) is made unique instead, as Kusto does. The
    // k-th unnamed column is Column{k} made unique (Kusto.Language: Column1 = 5, x + 1 gives Column11).
    const usedRefs = new Set<string>();
    const env = this.env(input.columns, local);
    const analyzed = analyzeInGroups(items, (i) => analyzeScalar(w.exprs[i]!, env));
    for (const [i, item] of items.entries()) {
      const expr = analyzed(i);
      let name: string;
      if (item.name !== undefined || item.expr.kind === 'name') {
        name = item.name ?? (item.expr as Expr & { kind: 'name' }).name;
        // A written name meeting a generated one is made unique below (Kusto.Language: strlen(x),
        // strlen_x = 1 gives strlen_x1; round(v), v = "x" gives v, v1; v + 1, Column1 = "x" gives
        // Column1, Column11, also where the input has those names), unless the written value is a bare
        // column: there Kusto.Language keeps one of the two columns (round(v), v = k; strlen(s),
        // strlen_s = k), so it stays a 400.
        if (names.isDeclared(name) || (item.name !== undefined && names.has(name) && item.expr.kind === 'name'))
          throw this.errors.semantic(`duplicate column name '${clip(name)}'`, item.nameSpan ?? item.span);
        name = names.written(name);
      } else name = names.generated(derivedName(namedAs(item.expr, (n) => env.resolve(n) !== undefined)));
      const ref = expr.kind === 'col' && !usedRefs.has(expr.ref) ? expr.ref : this.newRef();
      usedRefs.add(ref);
      out.push({ column: { name, type: expr.type, ref }, value: expr });
      // Later items may read a name written here (a = x, b = a); a derived name (round(r) -> r) does not
      // hide the input column r from them.
      if (item.name !== undefined) local.set(name, expr);
    }
    return { kind: 'project', input, items: out, columns: out.map((o) => o.column) };
  }

  private sort(input: Rel, keys: readonly SortKey[]): Rel {
    const env = this.env(input.columns);
    const irKeys: IrSortKey[] = keys.map((k) => {
      const expr = analyzeScalar(k.expr, env);
      // The sort page allows numeric, date, time or string keys; ordering JSON text would put 10
      // before 9 and a bag among numbers (as summarize refuses a dynamic group key).
      if (expr.type === 'dynamic')
        throw this.errors.semantic('cannot sort by a dynamic value; convert it first, e.g. todouble(...)', k.expr.span);
      const desc = k.direction !== 'asc';
      return { expr, desc, nullsFirst: k.nulls ? k.nulls === 'first' : !desc };
    });
    return { kind: 'sort', input, keys: irKeys, columns: input.columns };
  }

  private summarize(input: Rel, aggregates: readonly NamedExpr[], by: readonly NamedExpr[], span: Span): Rel {
    const env = this.env(input.columns);
    const keys: Assigned<IrExpr>[] = [];
    const taken = new OutputNames(this.columnNumbers(span.start));
    const keyColumnRefs = new Set<string>();
    for (const item of by) {
      const expr = analyzeScalar(item.expr, env);
      if (expr.type === 'dynamic')
        throw this.errors.semantic(
          'cannot group by a dynamic value; convert it first, e.g. tostring(...)',
          item.expr.span,
        );
      const explicit = item.name ?? (item.expr.kind === 'name' ? item.expr.name : undefined);
      // As in project: two written names clash; a bare column meeting a derived name is made unique. A
      // key named as a derived key is refused (Kusto.Language drops one of the two columns).
      if (explicit !== undefined && (taken.isDeclared(explicit) || (item.name !== undefined && taken.has(explicit))))
        throw this.errors.semantic(`duplicate column name '${clip(explicit)}'`, item.nameSpan ?? item.span);
      const name = explicit !== undefined ? taken.written(explicit) : taken.generated(derivedName(item.expr));
      const ref = expr.kind === 'col' && !keyColumnRefs.has(expr.ref) ? expr.ref : this.newRef();
      keyColumnRefs.add(ref);
      keys.push({ column: { name, type: expr.type, ref }, value: expr });
    }
    // The by keys that are input columns stand for them: `*` leaves those out. Only the column
    // itself counts, not a key taking its name (Kusto.Language: arg_max(l, *) by bin(r, 1.0) returns r
    // and r1). keyColumnRefs also holds the new refs of computed keys, which match no input column.
    const keyRefs: ReadonlySet<string> = keyColumnRefs;
    const starColumns = input.columns.filter((c) => !keyRefs.has(c.ref));
    const aggs: Assigned<IrAgg>[] = [];
    const written: Assigned<IrExpr>[] = [];
    let computed = false;
    for (const item of aggregates) {
      if (item.expr.kind === 'call' && AGGREGATE_FUNCTIONS.has(item.expr.name)) {
        const outputs = analyzeAggregate(item.expr, { env, errors: this.errors, starColumns, keyRefs });
        // `Name = arg_max(x, ...)` names the x column only (summarize docs: arg_max_x=arg_max(x, *)); so
        // `p50 = percentiles(x, 50, ...)` names the first percentile's (Kusto.Language: p50, percentile_x_90;
        // the functions library's series_monthly_decompose_anomalies_fl writes p50=percentiles(_val, 50)).
        // `(a, b) = ...` names the first columns; fewer names than columns leave the rest their own
        // (Kusto.Language: `(a) = arg_max(ts, *)` gives a and the other columns), more is an error.
        if (item.names !== undefined && item.names.length > outputs.length) {
          throw this.errors.semantic(
            `${item.expr.name}() gives ${outputs.length} column${outputs.length === 1 ? '' : 's'} here, but ${item.names.length} names are given`,
            item.span,
          );
        }
        for (const [i, o] of outputs.entries()) {
          const tupleName = item.names?.[i];
          const column = tupleName
            ? this.aggColumn(o, tupleName.name, taken, { ...item, nameSpan: tupleName.span })
            : this.aggColumn(o, i === 0 ? item.name : undefined, taken, item);
          aggs.push({ column, value: o.agg });
          written.push({ column, value: { kind: 'col', ref: column.ref, type: column.type } });
        }
        continue;
      }
      if (item.names !== undefined)
        throw this.errors.semantic(
          '(a, b, ...) = names the columns of one aggregation call that gives several, such as percentiles() or arg_max()',
          item.span,
        );
      const post = this.aggregateExpression(item, env, starColumns, aggs, taken);
      written.push({ column: post.column, value: post.expr });
      computed = true;
    }
    if (aggs.length === 0 && keys.length === 0)
      throw this.errors.semantic('summarize needs an aggregation or a by clause', span);
    const rel = this.withColumns({ kind: 'aggregate', input, keys, aggs });
    if (!computed) return rel;
    // Expressions over aggregates: computed in a projection on top of the aggregate's hidden columns.
    const items: Assigned<IrExpr>[] = [
      ...keys.map((k) => ({
        column: k.column,
        value: { kind: 'col', ref: k.column.ref, type: k.column.type } as IrExpr,
      })),
      ...written,
    ];
    return { kind: 'project', input: rel, items, columns: items.map((o) => o.column) };
  }

  private aggColumn(o: AggregateOutput, explicit: string | undefined, taken: OutputNames, item: NamedExpr): IrColumn {
    const name =
      explicit !== undefined
        ? this.writtenName(explicit, taken, item)
        : taken.generated(o.defaultName === '' ? undefined : o.defaultName);
    return { name, type: o.agg.type, ref: this.newRef() };
  }

  /** @throws QueryError QUERY_SEMANTIC when another written name of the output has it. */
  private writtenName(name: string, taken: OutputNames, item: NamedExpr): string {
    if (taken.isDeclared(name))
      throw this.errors.semantic(`duplicate column name '${clip(name)}'`, item.nameSpan ?? item.span);
    return taken.written(name);
  }

  /** `summarize x = count() * 2` or `summarize sum(a) / count()`: aggregates become hidden columns. */
  aggregateExpression(
    item: NamedExpr,
    env: ScalarEnv,
    starColumns: readonly IrColumn[],
    aggs: Assigned<IrAgg>[],
    taken: OutputNames,
  ): { column: IrColumn; expr: IrExpr } {
    const hidden = new Map<string, IrExpr>();
    const hiddenNames = new Map<string, string>();
    let found = 0;
    const replace = (e: Expr): Expr => {
      if (e.kind === 'call' && AGGREGATE_FUNCTIONS.has(e.name)) {
        const outputs = analyzeAggregate(e, { env, errors: this.errors, starColumns });
        if (outputs.length !== 1 || outputs[0]!.multi)
          throw this.errors.unsupported(`${e.name}() cannot be used inside an expression`, e.span);
        const key = `\u0000agg${this.refCounter + 1}`;
        const column: IrColumn = { name: key, type: outputs[0]!.agg.type, ref: this.newRef() };
        aggs.push({ column, value: outputs[0]!.agg });
        hidden.set(key, { kind: 'col', ref: column.ref, type: column.type });
        if (!UNPASSED_NAMES.has(e.name)) hiddenNames.set(key, outputs[0]!.defaultName);
        found++;
        return { kind: 'name', name: key, span: e.span };
      }
      return mapChildren(e, replace);
    };
    const rewritten = replace(item.expr);
    if (found === 0)
      throw this.errors.semantic(
        'each summarize aggregation must call an aggregation function such as count() or avg()',
        item.expr.span,
      );
    const outer: ScalarEnv = {
      ...env,
      resolve: (name) => {
        const h = hidden.get(name);
        if (h) return h;
        if (env.resolve(name))
          throw this.errors.semantic(`'${clip(name)}' must be inside an aggregation function`, item.expr.span);
        return undefined;
      },
    };
    const expr = analyzeScalar(rewritten, outer);
    let name: string;
    if (item.name !== undefined) name = this.writtenName(item.name, taken, item);
    else {
      // An expression that names its column names it after the aggregates in it, each read as a column
      // of its default name (Kusto.Language: tostring(avg(x)) is avg_x, round(avg(x), 1) avg_x,
      // strlen(max(s)) strlen_max_s, dcount_hll(hll(d)) dcount_hll_hll_d); take_any and the percentiles
      // name nothing there (strlen(take_any(s)) is strlen_, tostring(take_any(s)) Column1); any other
      // expression is ColumnN (sum(x) * 2).
      const passed = derivedName(rewritten)?.replace(HIDDEN_AGGREGATE, (key) => hiddenNames.get(key) ?? '');
      name = taken.generated(passed || undefined);
    }
    return { column: { name, type: expr.type, ref: this.newRef() }, expr };
  }
}
