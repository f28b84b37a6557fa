// POST /insights/v1/telemetry/query/table and /explain: the caller's customer, the plants it may
// see (intersected with the request's plantIds) and the time window restrict States and Events
// outside the query text; the KQL is compiled to the engine's SQL and run.
import type { Caller } from '../auth/caller';
import { AppError } from '../core/errors';
import { compile, QueryError, type CompiledQuery } from '../query';
import { responseColumn, type ResponseColumn } from './columns';
import type { QueryEngine } from './ports';
import { parseQueryRequest } from './request';

export interface QuerySettings {
  readonly rowLimit: number;
  readonly timeoutMs: number;
  readonly maxWindowDays: number;
  readonly now: () => Date;
}

export interface TableResponse {
  readonly data: { readonly columns: readonly ResponseColumn[]; readonly rows: readonly unknown[][] };
  /** Beside `data`: whether rows were cut at the limit, and the `render` hint of the query. */
  readonly meta: { readonly truncated: boolean; readonly rowLimit: number; readonly render?: unknown };
}

/** The plants the query may read: null = every plant of the customer. @throws AppError FORBIDDEN. */
export function plantScope(caller: Caller, requested: readonly string[] | undefined): readonly string[] | null {
  if (requested === undefined || requested.length === 0) return caller.allPlants ? null : caller.plantIds;
  const refused = requested.filter((p) => !caller.allPlants && !caller.plantIds.includes(p));
  if (refused.length > 0) throw new AppError('FORBIDDEN', `this client may not read plant(s) ${refused.map((p) => `"${p}"`).join(', ')}`, refused.map((plantId) => ({ field: 'plantIds', plantId })));
  if (caller.allPlants) {
    const unknown = requested.filter((p) => !caller.plantIds.includes(p));
    if (unknown.length > 0) throw new AppError('FORBIDDEN', `plant(s) ${unknown.map((p) => `"${p}"`).join(', ')} are not plants of this customer`, unknown.map((plantId) => ({ field: 'plantIds', plantId })));
  }
  return [...new Set(requested)];
}

function compileRequest(body: unknown, caller: Caller, engine: QueryEngine, settings: QuerySettings): CompiledQuery {
  const request = parseQueryRequest(body, settings.maxWindowDays);
  const plantIds = plantScope(caller, request.plantIds);
  try {
    return compile(request.query, {
      dialect: engine.dialect,
      scope: { customerId: caller.customerId, plantIds, startTime: request.startTime, endTime: request.endTime },
      now: settings.now(),
      rowLimit: settings.rowLimit,
      ...(engine.database ? { timestreamDatabase: engine.database } : {}),
    });
  } catch (error) {
    if (error instanceof QueryError) throw new AppError(error.code, error.message, error.toData().map((position) => ({ ...position })));
    throw error;
  }
}

export async function runTableQuery(body: unknown, caller: Caller, engine: QueryEngine, settings: QuerySettings): Promise<TableResponse> {
  const compiled = compileRequest(body, caller, engine, settings);
  const rows = await engine.run(compiled.sql, compiled.columns.map((c) => c.type), { timeoutMs: settings.timeoutMs });
  const truncated = rows.length > settings.rowLimit;
  return {
    data: { columns: compiled.columns.map(responseColumn), rows: truncated ? rows.slice(0, settings.rowLimit) : rows },
    meta: { truncated, rowLimit: settings.rowLimit, ...(compiled.renderHint ? { render: compiled.renderHint } : {}) },
  };
}

export function explainQuery(body: unknown, caller: Caller, engine: QueryEngine, settings: QuerySettings) {
  const compiled = compileRequest(body, caller, engine, settings);
  return { data: { dialect: engine.dialect, sql: compiled.sql, columns: compiled.columns.map(responseColumn), ...(compiled.renderHint ? { render: compiled.renderHint } : {}) } };
}
