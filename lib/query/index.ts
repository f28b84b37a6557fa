// compile(): KQL text -> SQL of one dialect plus the output schema. The caller's scope (customer,
// plants, time window) is applied to every States/Events reference outside the query text.
// Throws QueryError for any problem in the query: QUERY_SYNTAX | QUERY_SEMANTIC | QUERY_UNSUPPORTED,
// or the code of the limit it exceeds (limits.ts); nothing else, whatever the text. Always ends:
// within the compile budget, which every loop checks. Throws TypeError for invalid options (a
// programming error of the caller).
import { analyze } from './analyzer';
import { expandFunctions } from './expand-udf';
import type { KqlType, RenderHint, ScopeRestriction } from './ir';
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
import type { SqlDialect } from './sql/dialect';
import { DuckDbDialect } from './sql/duckdb';
import { generateSql } from './sql/generator';
import { TimestreamDialect } from './sql/timestream';

export { QueryError, type QueryErrorCode, type QueryErrorPosition } from './errors';
export { DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits';
export { convertRow, convertRows, convertValue } from './values';
export type { KqlType, RenderHint } from './ir';

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
}

export interface OutputColumn {
  readonly name: string;
  readonly type: KqlType;
}

export interface CompiledQuery {
  readonly sql: string;
  readonly columns: readonly OutputColumn[];
  readonly renderHint?: RenderHint;
}

export function compile(queryText: string, options: CompileOptions): CompiledQuery {
  const scope = scopeRestriction(options.scope);
  if (!Number.isInteger(options.rowLimit) || options.rowLimit < 0)
    throw new TypeError('rowLimit must be a non-negative integer');
  const nowMs = options.now.getTime();
  if (Number.isNaN(nowMs)) throw new TypeError('now must be a valid Date');
  const ctx = compileContext(queryText, resolveLimits(options.limits), options.clock);
  checkQueryLength(ctx);
  const program = expandFunctions(parse(queryText, ctx), ctx);
  const records = expressionRecords();
  const analyzed = analyze(program, ctx, { nowTicks: BigInt(nowMs) * 10_000n, records });
  const dialect: SqlDialect =
    options.dialect === 'duckdb' ? new DuckDbDialect() : new TimestreamDialect(options.timestreamDatabase);
  const sql = generateSql(analyzed.rel, dialect, {
    scope,
    rowLimit: options.rowLimit,
    ctx,
    records,
    materialized: analyzed.materialized,
  });
  const columns = analyzed.rel.columns.map((c) => ({ name: c.name, type: c.type }));
  return analyzed.renderHint ? { sql, columns, renderHint: analyzed.renderHint } : { sql, columns };
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
