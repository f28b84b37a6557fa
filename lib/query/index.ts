// compile(): KQL text -> SQL of one dialect plus the output schema. The caller's scope (customer,
// plants, time window) is applied to every States/Events reference outside the query text.
// Throws QueryError (QUERY_SYNTAX | QUERY_SEMANTIC | QUERY_UNSUPPORTED) for any problem in the query;
// throws TypeError for invalid options (a programming error of the caller).
import { analyze } from './analyzer';
import type { KqlType, RenderHint, ScopeRestriction } from './ir';
import { parseDatetimeTicks } from './literals';
import { parse } from './parser';
import type { SqlDialect } from './sql/dialect';
import { DuckDbDialect } from './sql/duckdb';
import { generateSql } from './sql/generator';
import { TimestreamDialect } from './sql/timestream';

export { QueryError, type QueryErrorCode, type QueryErrorPosition } from './errors';
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
  if (!Number.isInteger(options.rowLimit) || options.rowLimit < 0) throw new TypeError('rowLimit must be a non-negative integer');
  const nowMs = options.now.getTime();
  if (Number.isNaN(nowMs)) throw new TypeError('now must be a valid Date');
  const program = parse(queryText);
  const analyzed = analyze(program, queryText, { nowTicks: BigInt(nowMs) * 10_000n });
  const dialect: SqlDialect = options.dialect === 'duckdb' ? new DuckDbDialect() : new TimestreamDialect(options.timestreamDatabase);
  const sql = generateSql(analyzed.rel, dialect, { scope, rowLimit: options.rowLimit });
  const columns = analyzed.rel.columns.map((c) => ({ name: c.name, type: c.type }));
  return analyzed.renderHint ? { sql, columns, renderHint: analyzed.renderHint } : { sql, columns };
}

function scopeRestriction(scope: QueryScope): ScopeRestriction {
  const startTicks = parseDatetimeTicks(scope.startTime);
  const endTicks = parseDatetimeTicks(scope.endTime);
  if (startTicks === undefined || endTicks === undefined) throw new TypeError('scope startTime and endTime must be ISO 8601 datetimes');
  if (typeof scope.customerId !== 'string' || scope.customerId.length === 0) throw new TypeError('scope customerId is required');
  return { customerId: scope.customerId, plantIds: scope.plantIds, startTicks, endTicks };
}
