// compile(): KQL text -> SQL of one dialect plus the output schema. The caller's scope (customer,
// plants, time window) is applied to every States/Events reference outside the query text.
// Throws QueryError for any problem in the query: QUERY_SYNTAX | QUERY_SEMANTIC | QUERY_UNSUPPORTED,
// or the code of the limit it exceeds (limits.ts); nothing else, whatever the text. Always ends:
// within the compile budget, which every loop checks. Throws TypeError for invalid options (a
// programming error of the caller).
import { analyze } from './analyzer';
import { expandFunctions } from './expand-udf';
import { DiscoveryNeeded, MAX_DISCOVERED_KEYS, slotType, type DiscoveredKey } from './discovery';
import type { SetStatement } from './ast';
import type { QueryError } from './errors';
import type { AnalyzedQuery, KqlType, RenderHint, ScopeRestriction } from './ir';
import {
  checkQueryLength,
  compileContext,
  expressionRecords,
  resolveLimits,
  type Clock,
  type QueryLimits,
} from './limits';
import { MAX_DATETIME_TICKS, MIN_DATETIME_TICKS, parseDatetimeTicksUnbounded } from './literals';
import { parse } from './parser';
import { batchStatement, resultTableProgram } from './result-tables';
import type { QueryIdentity } from './meta-functions';
import { applyStatements, withTakeMax, type ResultLimits } from './statements';
import type { SqlDialect } from './sql/dialect';
import { DuckDbDialect } from './sql/duckdb';
import { generateSql, type StoredValue, type StoredValues } from './sql/generator';
import { TimestreamDialect } from './sql/timestream';

export { QueryError, type QueryErrorCode, type QueryErrorPosition } from './errors';
export { DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits';
export { convertRow, convertRows, convertValue } from './values';
export type { KqlType, RenderHint } from './ir';
export { MAX_DISCOVERED_KEYS, type DiscoveredKey } from './discovery';
export { resultTableNames } from './result-tables';
export type { ResultLimits } from './statements';
export { requestPropertyStatements, type OptionFailure } from './statements-options';
export type { SetStatement } from './ast';
export type { StoredValue } from './sql/generator';
export type { QueryIdentity } from './meta-functions';

export interface QueryScope {
  readonly customerId: string;
  /** Plants the caller may see (already intersected with the request's plantIds); null = all of the customer's. */
  readonly plantIds: readonly string[] | null;
  /** ISO 8601 UTC; rows with startTime <= Timestamp < endTime. */
  readonly startTime: string;
  readonly endTime: string;
}

export interface CompileOptions {
  readonly dialect: 'duckdb' | 'timestream';
  readonly scope: QueryScope;
  /** now() and ago() are fixed to this instant for the whole query. */
  readonly now: Date;
  /** The SQL returns at most rowLimit + 1 rows: more than rowLimit means the result was truncated. */
  readonly rowLimit: number;
  /** Timestream database name (default DEFAULT_TIMESTREAM_DATABASE). */
  readonly timestreamDatabase?: string;
  /** Overrides of DEFAULT_QUERY_LIMITS (docs/query-api.md, "Limits"). */
  readonly limits?: Partial<QueryLimits>;
  /** The time source of the compile budget in ms (default performance.now); for tests and benchmarks. */
  readonly clock?: Clock;
  /**
   * Milliseconds of the compile budget already spent (default 0): the result tables of one batch,
   * each a compile, share one budget. Only compile time counts, never the engine's run time.
   */
  readonly budgetSpentMs?: number;
  /**
   * Which result table of a batch or of a query ending in fork/facet to compile (result-tables.ts,
   * resultTableNames); none: the caller answers one table, and such a query is refused.
   */
  readonly resultTable?: number;
  /** Values of the query's declared parameters, as text by name (statements-declare.ts). */
  readonly parameters?: Readonly<Record<string, string>>;
  /**
   * Request properties sent beside the query (the Kusto body's properties.Options), as checked set
   * statements of literals (requestPropertyStatements); taken before the query's own set statements.
   */
  readonly requestProperties?: readonly SetStatement[];
  /** Who runs the query, for current_principal() and current_database(); none: they are refused. */
  readonly identity?: QueryIdentity;
  /**
   * DuckDB only: the query's `materialize()` lets are read from tables the caller stores once per
   * request (CompiledQuery.stored), so that every result table of a batch reads the same rows.
   */
  readonly storeShared?: boolean;
}

export interface OutputColumn {
  readonly name: string;
  readonly type: KqlType;
}

export interface CompiledQuery {
  readonly sql: string;
  readonly columns: readonly OutputColumn[];
  readonly renderHint?: RenderHint;
  /** The limits the query's set statements ask for (truncation, servertimeout): the caller keeps the lower of its own and these. */
  readonly properties?: ResultLimits;
  /**
   * With storeShared: the tables the SQL reads, which the caller stores first (in this order),
   * each named by its let, the same in every result table of the request.
   */
  readonly stored?: readonly StoredValue[];
}

export function compile(queryText: string, options: CompileOptions): CompiledQuery {
  const plan = compilePlan(queryText, options);
  if (plan.kind === 'discover') throw plan.refusal;
  return plan.query;
}

/** A compile that may need the data's keys first (discovery.ts): either the query, or the SQL that finds them. */
export type CompilePlan =
  | { readonly kind: 'compiled'; readonly query: CompiledQuery; readonly properties?: ResultLimits }
  | {
      readonly kind: 'discover';
      /** Runs like a query: its rows (as the API writes them) go to read(). */
      readonly sql: string;
      readonly columns: readonly OutputColumn[];
      /** The keys of the rows, for the next compilePlan's `found`. @throws QueryError over MAX_DISCOVERED_KEYS. */
      read(rows: readonly (readonly unknown[])[]): readonly DiscoveredKey[];
      /** What compile() answers instead: give the output schema. */
      readonly refusal: QueryError;
      /** As CompiledQuery's. */
      readonly properties?: ResultLimits;
    };

/**
 * compile() for a caller that can run a key discovery first: `found` holds the keys of the earlier
 * passes of this query, in order. Same throws as compile().
 */
export function compilePlan(
  queryText: string,
  options: CompileOptions,
  found: readonly (readonly DiscoveredKey[])[] = [],
): CompilePlan {
  const scope = scopeRestriction(options.scope);
  if (!Number.isInteger(options.rowLimit) || options.rowLimit < 0)
    throw new TypeError('rowLimit must be a non-negative integer');
  const nowMs = options.now.getTime();
  if (Number.isNaN(nowMs)) throw new TypeError('now must be a valid Date');
  const ctx = compileContext(queryText, resolveLimits(options.limits), options.clock, options.budgetSpentMs);
  checkQueryLength(ctx);
  // A batch's other statements are not compiled here: each result table is a compile of its own.
  const table = batchStatement(parse(queryText, ctx), options.resultTable, ctx);
  const { program: bound, properties } = applyStatements(
    table.program,
    options.parameters,
    ctx.errors,
    options.requestProperties,
  );
  const program = withTakeMax(
    resultTableProgram(expandFunctions(bound, ctx), table.index, ctx),
    properties.takeMaxRecords,
  );
  const limits = properties.limits;
  // truncationmaxrecords lowers the row limit of the SQL itself; the caller lowers its own with `properties`.
  const rowLimit = limits?.rowLimit === undefined ? options.rowLimit : Math.min(options.rowLimit, limits.rowLimit);
  const nowTicks = properties.nowTicks ?? BigInt(nowMs) * 10_000n;
  const records = expressionRecords();
  const dialect: SqlDialect =
    options.dialect === 'duckdb' ? new DuckDbDialect() : new TimestreamDialect(options.timestreamDatabase);
  let analyzed: AnalyzedQuery;
  try {
    analyzed = analyze(program, ctx, {
      nowTicks,
      records,
      discovery: { found, met: 0 },
      engine: options.dialect,
      ...(properties.binAutoSize ? { binAuto: { size: properties.binAutoSize, at: properties.binAutoAt } } : {}),
      ...(options.identity ? { identity: options.identity } : {}),
    });
  } catch (e) {
    if (!(e instanceof DiscoveryNeeded)) throw e;
    // The key discovery reads a materialize() let as its query: only the keys are read from it.
    return discoveryPlan(
      e,
      generateSql(e.rel, dialect, { scope, rowLimit: MAX_DISCOVERED_KEYS, ctx, records }),
      limits,
    );
  }
  const stored = options.storeShared && options.dialect === 'duckdb' ? storedLets(analyzed) : undefined;
  const sql = generateSql(analyzed.rel, dialect, {
    scope,
    rowLimit,
    ctx,
    records,
    materialized: analyzed.materialized,
    ...(stored ? { stored } : {}),
  });
  const columns = analyzed.rel.columns.map((c) => ({ name: c.name, type: c.type }));
  const read = stored && stored.written.length > 0 ? { sql, columns, stored: stored.written } : { sql, columns };
  const hinted = analyzed.renderHint ? { ...read, renderHint: analyzed.renderHint } : read;
  const query = limits ? { ...hinted, properties: limits } : hinted;
  return limits ? { kind: 'compiled', query, properties: limits } : { kind: 'compiled', query };
}

/**
 * The query's materialize() lets as stored tables, each named by the position of its let's name:
 * every result table of a request compiles the same let (the same statements before it, scope and
 * options) to the same rows, so they all read the one table the request stores.
 */
function storedLets(analyzed: AnalyzedQuery): StoredValues {
  const names = new Map([...analyzed.materializedLets].map(([rel, at]) => [rel, `_kql_let_${at}`]));
  return { names, written: [] };
}

function discoveryPlan(needed: DiscoveryNeeded, sql: string, limits: ResultLimits | undefined): CompilePlan {
  const columns = needed.rel.columns.map((c) => ({ name: c.name, type: c.type }));
  return {
    kind: 'discover',
    ...(limits ? { properties: limits } : {}),
    sql,
    columns,
    refusal: needed.refusal,
    read(rows) {
      if (rows.length > MAX_DISCOVERED_KEYS) throw needed.tooMany;
      return rows.map((r) =>
        needed.plugin === 'pivot'
          ? { key: String(r[0]) }
          : { key: String(r[0]), type: slotType(Array.isArray(r[1]) ? r[1].map(String) : []) },
      );
    },
  };
}

function scopeRestriction(scope: QueryScope): ScopeRestriction {
  const startTicks = clamp(parseDatetimeTicksUnbounded(scope.startTime));
  const endTicks = clamp(parseDatetimeTicksUnbounded(scope.endTime));
  if (startTicks === undefined || endTicks === undefined)
    throw new TypeError('scope startTime and endTime must be ISO 8601 datetimes');
  if (typeof scope.customerId !== 'string' || scope.customerId.length === 0)
    throw new TypeError('scope customerId is required');
  return { customerId: scope.customerId, plantIds: scope.plantIds, startTicks, endTicks };
}

/** A window reaching past Kusto's datetime range holds no more rows than the range: clamped to it. */
function clamp(t: bigint | undefined): bigint | undefined {
  return t === undefined
    ? t
    : t < MIN_DATETIME_TICKS
      ? MIN_DATETIME_TICKS
      : t > MAX_DATETIME_TICKS
        ? MAX_DATETIME_TICKS
        : t;
}
