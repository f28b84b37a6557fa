// The analyzed query: typed scalar expressions and a tree of relational operators, each with its
// output schema. Column references use private SQL names (`ref`), never user text: the generator
// only ever emits physical column names from the schema and generated names like _c3.
import type { KqlType, TableName } from '../telemetry/tables';

export type { KqlType };

export interface IrColumn {
  /** The KQL column name seen by the user. */
  readonly name: string;
  readonly type: KqlType;
  /** The SQL-side name: a physical column of the source table or a generated _cN. */
  readonly ref: string;
}

/** Literal payloads: string, long/int as bigint, real as number, bool, datetime/timespan as bigint ticks, dynamic as JSON text. */
export type IrValue = string | number | bigint | boolean | null;

/** Path segment of a dynamic access: a property name or an array index. */
export type PathSegment = string | number;

export type IrExpr =
  | { readonly kind: 'col'; readonly ref: string; readonly type: KqlType }
  | { readonly kind: 'lit'; readonly type: KqlType; readonly value: IrValue }
  | {
      readonly kind: 'call';
      readonly fn: ScalarFn;
      readonly args: readonly IrExpr[];
      readonly type: KqlType;
      readonly path?: readonly PathSegment[];
    }
  | CatalogCall
  | SubqueryExpr;

/**
 * A value read from a tabular expression: 'scalar' is the first column of the first row
 * (toscalar), 'list' the first column's non-null values (the right side of in / !in), 'terms' those
 * of a string column as one array (the right side of has_any / has_all); `lower` lower-cases that
 * column (in~).
 */
export interface SubqueryExpr {
  readonly kind: 'subquery';
  readonly mode: 'scalar' | 'list' | 'terms';
  readonly rel: Rel;
  readonly type: KqlType;
  readonly lower?: boolean;
}

/** Canonical scalar operations; the generator knows how each is spelled per dialect. */
export type ScalarFn =
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'mod'
  | 'neg'
  | 'eq'
  | 'ne'
  | 'lt'
  | 'le'
  | 'gt'
  | 'ge'
  | 'eq_ci'
  | 'ne_ci'
  | 'and'
  | 'or'
  | 'not'
  | 'in'
  | 'in_ci'
  | 'between'
  /** x !between (low .. high): (x < low or x > high), x written once (sql/expressions.ts). */
  | 'not_between'
  | 'has'
  | 'has_cs'
  /** has_terms_any / has_terms_all(text, terms): `has` of each string of a 'terms' subquery. */
  | 'has_terms_any'
  | 'has_terms_all'
  | 'contains'
  | 'contains_cs'
  | 'startswith'
  | 'startswith_cs'
  | 'endswith'
  | 'endswith_cs'
  | 'matches'
  | 'iff'
  | 'case'
  | 'coalesce'
  | 'isnull'
  | 'isnotnull'
  | 'isempty'
  | 'isnotempty'
  | 'strcat'
  | 'strlen'
  | 'substring'
  | 'tolower'
  | 'toupper'
  | 'round'
  | 'abs'
  | 'bin_num'
  | 'bin_datetime'
  | 'bin_timespan'
  | 'startofday'
  | 'tostring'
  | 'todouble'
  | 'tolong'
  | 'toint'
  | 'tobool'
  | 'todatetime'
  | 'parse_json'
  | 'totimespan'
  | 'dyn_get'
  /** dyn_at(value, keyOrIndex): a subscript computed per row (`dict[col]`, `arr[i]`; dynamic data type docs). */
  | 'dyn_at';

export type AggFn =
  | 'count'
  | 'countif'
  | 'sum'
  | 'sumif'
  | 'avg'
  | 'avgif'
  | 'min'
  | 'max'
  | 'dcount'
  | 'percentile'
  | 'arg_max'
  | 'arg_min'
  | 'make_list'
  | 'make_set'
  | 'stdev'
  | 'take_any'
  | 'catalog';

export interface IrAgg {
  readonly fn: AggFn;
  readonly args: readonly IrExpr[];
  readonly type: KqlType;
  /** percentile: the percentile in 0..100. */
  readonly percentile?: number;
  /** fn 'catalog': the catalog entry that spells it. */
  readonly ref?: CatalogRef;
  /** take_any of several expressions: all of them from one row (take_any page). */
  readonly sameRow?: boolean;
}

export interface IrSortKey {
  readonly expr: IrExpr;
  readonly desc: boolean;
  readonly nullsFirst: boolean;
}

export interface Assigned<T> {
  readonly column: IrColumn;
  readonly value: T;
}

export interface ScopeRestriction {
  readonly customerId: string;
  readonly plantIds: readonly string[] | null;
  /** Datetime ticks since the epoch. */
  readonly startTicks: bigint;
  readonly endTicks: bigint;
}

export type Rel =
  | { readonly kind: 'scan'; readonly table: TableName; readonly columns: readonly IrColumn[] }
  | { readonly kind: 'values'; readonly columns: readonly IrColumn[]; readonly rows: readonly (readonly IrExpr[])[] }
  | { readonly kind: 'print'; readonly columns: readonly IrColumn[]; readonly exprs: readonly IrExpr[] }
  | {
      readonly kind: 'range';
      readonly columns: readonly IrColumn[];
      readonly from: IrExpr;
      readonly to: IrExpr;
      readonly step: IrExpr;
    }
  | { readonly kind: 'filter'; readonly input: Rel; readonly predicate: IrExpr; readonly columns: readonly IrColumn[] }
  | {
      readonly kind: 'project';
      readonly input: Rel;
      readonly items: readonly Assigned<IrExpr>[];
      readonly columns: readonly IrColumn[];
    }
  | {
      readonly kind: 'aggregate';
      readonly input: Rel;
      readonly keys: readonly Assigned<IrExpr>[];
      readonly aggs: readonly Assigned<IrAgg>[];
      readonly columns: readonly IrColumn[];
    }
  | {
      readonly kind: 'sort';
      readonly input: Rel;
      readonly keys: readonly IrSortKey[];
      readonly columns: readonly IrColumn[];
    }
  | { readonly kind: 'limit'; readonly input: Rel; readonly count: bigint; readonly columns: readonly IrColumn[] }
  | { readonly kind: 'distinct'; readonly input: Rel; readonly columns: readonly IrColumn[] }
  | {
      readonly kind: 'join';
      readonly joinKind: JoinKind;
      readonly left: Rel;
      readonly right: Rel;
      readonly on: readonly JoinKey[];
      readonly output: readonly JoinOutput[];
      readonly columns: readonly IrColumn[];
    }
  | {
      readonly kind: 'window';
      readonly input: Rel;
      readonly items: readonly Assigned<IrWindow>[];
      readonly columns: readonly IrColumn[];
    }
  | { readonly kind: 'union'; readonly legs: readonly UnionLegRel[]; readonly columns: readonly IrColumn[] }
  | {
      readonly kind: 'parse';
      readonly input: Rel;
      readonly source: IrExpr;
      readonly pattern: string;
      readonly captures: readonly Assigned<number>[];
      readonly columns: readonly IrColumn[];
    }
  | { readonly kind: 'sample'; readonly input: Rel; readonly count: bigint; readonly columns: readonly IrColumn[] }
  | {
      readonly kind: 'mvExpand';
      readonly input: Rel;
      readonly items: readonly Assigned<IrExpr>[];
      readonly bagKind: 'bag' | 'array';
      readonly index?: IrColumn;
      readonly limit?: bigint;
      /** The operator that expands (mv-apply, evaluate narrow), when not mv-expand itself: named where an engine refuses it. */
      readonly origin?: 'mv-apply' | 'evaluate narrow' | 'evaluate bag_unpack';
      readonly columns: readonly IrColumn[];
    }
  | {
      readonly kind: 'topNested';
      readonly input: Rel;
      readonly levels: readonly TopNestedLevel[];
      readonly columns: readonly IrColumn[];
    }
  | {
      readonly kind: 'makeSeries';
      readonly input: Rel;
      readonly series: MakeSeriesIr;
      readonly columns: readonly IrColumn[];
    }
  | {
      readonly kind: 'session';
      readonly input: Rel;
      readonly session: SessionIr;
      readonly columns: readonly IrColumn[];
    }
  | {
      readonly kind: 'sequenceScan';
      readonly input: Rel;
      readonly scan: ScanIr;
      readonly columns: readonly IrColumn[];
    }
  | {
      /** graph-mark-components (sql/graph-components.ts): input's two columns are edge ends (a node with itself too); columns: node, component index. */
      readonly kind: 'graphComponents';
      readonly input: Rel;
      readonly strong: boolean;
      readonly columns: readonly IrColumn[];
    };

/** One level of top-nested: the key and aggregation columns, how many to keep (all when absent). */
export interface TopNestedLevel {
  readonly key: Assigned<IrExpr>;
  /**
   * The level's aggregation column: an expression over the aggregation calls of `parts` (their
   * columns' refs), `sum(x)` alone or an algebraic combination such as `sum(x) / count()`.
   */
  readonly agg: { readonly column: IrColumn; readonly value: IrExpr; readonly parts: readonly Assigned<IrAgg>[] };
  readonly desc: boolean;
  readonly count?: bigint;
  /** `with others =`: the key value of the row aggregating the rows outside the top. */
  readonly others?: IrExpr;
}

export interface RenderHint {
  readonly visualization: string;
  readonly properties: Readonly<Record<string, string>>;
}

export interface AnalyzedQuery {
  readonly rel: Rel;
  readonly renderHint?: RenderHint;
  /** The relations of `materialize()` lets: evaluated once however many times they are read. */
  readonly materialized: ReadonlySet<Rel>;
  /**
   * The relations of the query's own `materialize()` lets, each with the position of its let's name:
   * the same let in every result table of a batch, whose rows a request may store once (index.ts).
   */
  readonly materializedLets: ReadonlyMap<Rel, number>;
}

/**
 * A catalog entry as the IR names it; the SQL generator gets the entry (its SQL per dialect) from
 * lib/query/catalog by this name. The IR holds no entry itself, so it does not depend on the catalog.
 */
export interface CatalogRef {
  readonly catalog: 'scalar' | 'operator' | 'aggregate';
  readonly name: string;
}

/** A call of a function from the catalog (lib/query/catalog). */
export interface CatalogCall {
  readonly kind: 'call';
  readonly fn: 'catalog';
  readonly ref: CatalogRef;
  readonly args: readonly IrExpr[];
  readonly type: KqlType;
  readonly path?: undefined;
}

export type { JoinKind } from './ast';
import type { JoinKind } from './ast';

/** Join keys: a column ref of the left input equal to one of the right input. */
export interface JoinKey {
  readonly left: string;
  readonly right: string;
}

/** One output column of a join: the input ref it copies, from the left or the right input. */
export interface JoinOutput {
  readonly side: 'left' | 'right';
  readonly from: string;
  readonly column: IrColumn;
}

/** Window functions over the serialized order of the input (serialize operator docs). */
export type WindowFn = 'row_number' | 'prev' | 'next' | 'row_cumsum';

export interface IrWindow {
  readonly fn: WindowFn;
  readonly type: KqlType;
  /** prev/next: the value read; row_cumsum: the term summed. */
  readonly value?: IrExpr;
  /** prev/next: how many rows back or ahead (>= 0). */
  readonly offset?: bigint;
  /** prev/next: the value past either end (null when omitted). */
  readonly fallback?: IrExpr;
  /** row_number: the first number. */
  readonly start?: bigint;
  /** row_number, row_cumsum: numbering or sum restarts where this is true. */
  readonly restart?: IrExpr;
  /** Inside partition or mv-apply: each value of this (the sub-table's hidden key) is a window of its own. */
  readonly group?: IrExpr;
}

/** One leg of a union: each output column's value in this leg (a column of `rel` or a literal). */
export interface UnionLegRel {
  readonly rel: Rel;
  readonly values: readonly IrExpr[];
}

/** make-series (lib/query/analyze-make-series.ts): one row per group, each aggregation as an array over the axis bins. */
export interface MakeSeriesIr {
  readonly keys: readonly Assigned<IrExpr>[];
  readonly aggs: readonly SeriesAgg[];
  /** The output column (a dynamic array of the bins' axis values) and the axis value of each input row. */
  readonly axis: { readonly column: IrColumn; readonly value: IrExpr };
  /** Absent: the data's first bin (bin(min, step)). */
  readonly from?: IrExpr;
  /** Absent: the end of the data's last bin. Exclusive, except in the range form. */
  readonly to?: IrExpr;
  readonly step: IrExpr;
  /** The `in range(start, stop, step)` form: bins aligned by bin(), stop inclusive. */
  readonly range: boolean;
  /** kind=nonempty: no input rows in the bounds still give one row of defaults (with by: of empty keys). */
  readonly nonEmpty: boolean;
}

export interface SeriesAgg {
  /** A dynamic column: the array of the aggregate per bin. */
  readonly column: IrColumn;
  readonly value: IrAgg;
  /** The value of bins without rows (0 when not written). */
  readonly default: IrExpr;
  /** The type of the array's elements: the aggregate's, widened to the default's. */
  readonly elementType: KqlType;
}

/**
 * row_window_session(value, maxFromFirst, maxBetweenNeighbors [, restart]) over the input's serialized
 * order (lib/query/analyze-window-session.ts): `column` (appended) holds each row's session start.
 */
export interface SessionIr {
  readonly column: IrColumn;
  /** A datetime. */
  readonly value: IrExpr;
  /** Constant timespans. */
  readonly maxFromFirst: IrExpr;
  readonly maxBetweenNeighbors: IrExpr;
  readonly restart?: IrExpr;
}

/**
 * The scan operator (lib/query/analyze-scan.ts), over the input's serialized order. Each step k has a
 * state holding one slot per step 0..k: the matched row's values of the slot columns (the declared
 * columns, then the input columns some step reads as `Step.Column`).
 */
export interface ScanIr {
  /** The input's columns, which the conditions and assignments read. */
  readonly inputs: readonly IrColumn[];
  readonly slots: readonly {
    readonly type: KqlType;
    /** In an empty state: the declared default, or null for an input column. */
    readonly initial: IrExpr;
    /** The declared column's index, or the input column's ref, whose value a match stores. */
    readonly source: { readonly declared: number } | { readonly input: string };
  }[];
  /** The declared columns, in the output after the input's. */
  readonly declared: readonly IrColumn[];
  readonly steps: readonly ScanStepIr[];
  /** with_match_id: the sequence's 0-based number. */
  readonly matchId?: IrColumn;
  /** Inside partition: the key column; where it changes the state starts empty again (match ids from 0). */
  readonly resetOn?: IrColumn;
}

export interface ScanStepIr {
  readonly output: 'all' | 'last' | 'none';
  /** Over the input row and the reads. */
  readonly condition: IrExpr;
  /** Per declared column: its assigned value, or undefined (the state's latest value). */
  readonly assigned: readonly (IrExpr | undefined)[];
  /** The refs standing for `Step.Column` in the condition and assignments: the step's index and the slot. */
  readonly reads: readonly { readonly ref: string; readonly step: number; readonly slot: number }[];
}
