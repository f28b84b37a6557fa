// POST /insights/v1/telemetry/query/table and /explain: the caller's customer, the plants it may
// see (intersected with the request's plantIds) and the time window restrict States and Events
// outside the query text; the KQL is compiled to the engine's SQL and run within the limits:
// a place in the engine (admission.ts), the time limit, the row limit and the byte cap (answer.ts).
import type { Caller } from '../auth/caller';
import { AppError } from '../core/errors';
import {
  compile,
  compilePlan,
  QueryError,
  type CompiledQuery,
  type CompileOptions,
  type CompilePlan,
  type SetStatement,
} from '../query';
import { QueryAbort, type QuerySignal } from './abort';
import type { QueryAdmission, Release } from './admission';
import { TableAnswer, type TableResponse } from './answer';
import { responseColumn } from './columns';
import { discoverKeys } from './discovery';
import type { QueryEngine, QuerySession } from './ports';
import { queryIdentity } from './identity';
import { limitedSettings } from './query-limits';
import { parseQueryRequest } from './request';

export type { TableResponse } from './answer';

/** A Lambda response is at most 6 MB (6,291,456 bytes): this leaves room for headers and status. */
export const DEFAULT_MAX_RESPONSE_BYTES = 5_000_000;

export interface QuerySettings {
  readonly rowLimit: number;
  /** Waiting for a place and running, together. */
  readonly timeoutMs: number;
  readonly maxWindowDays: number;
  readonly now: () => Date;
  /** The byte cap of an answer (answer.ts); default DEFAULT_MAX_RESPONSE_BYTES. */
  readonly maxResponseBytes?: number;
  /** The process's admission of queries into the engine; none: every query runs at once. */
  readonly admission?: QueryAdmission;
}

/** The plants the query may read: null = every plant of the customer. @throws AppError FORBIDDEN. */
export function plantScope(caller: Caller, requested: readonly string[] | undefined): readonly string[] | null {
  if (requested === undefined || requested.length === 0) return caller.allPlants ? null : caller.plantIds;
  const refused = requested.filter((p) => !caller.allPlants && !caller.plantIds.includes(p));
  if (refused.length > 0)
    throw new AppError(
      'FORBIDDEN',
      `this client may not read plant(s) ${refused.map((p) => `"${p}"`).join(', ')}`,
      refused.map((plantId) => ({ field: 'plantIds', plantId })),
    );
  if (caller.allPlants) {
    const unknown = requested.filter((p) => !caller.plantIds.includes(p));
    if (unknown.length > 0)
      throw new AppError(
        'FORBIDDEN',
        `plant(s) ${unknown.map((p) => `"${p}"`).join(', ')} are not plants of this customer`,
        unknown.map((plantId) => ({ field: 'plantIds', plantId })),
      );
  }
  return [...new Set(requested)];
}

function compileRequest(body: unknown, caller: Caller, engine: QueryEngine, settings: QuerySettings): CompiledQuery {
  const { text, options } = prepareRequest(body, caller, engine, settings);
  return compiling(() => compile(text, options));
}

/** What a caller answering several result tables (the Kusto routes) says about the one to run. */
export interface TableRun {
  /** Which table of a batch or of a query ending in fork/facet (CompileOptions.resultTable). */
  readonly resultTable?: number;
  /** The Kusto routes' properties.Options as set statements (CompileOptions.requestProperties). */
  readonly requestProperties?: readonly SetStatement[];
  /** Milliseconds of the compile budget the request's other tables spent (CompileOptions.budgetSpentMs). */
  readonly budgetSpentMs?: number;
  /** The tables run in one session, which stores the materialize() values once (CompileOptions.storeShared). */
  readonly storeShared?: boolean;
}

function prepareRequest(
  body: unknown,
  caller: Caller,
  engine: QueryEngine,
  settings: QuerySettings,
  { resultTable, requestProperties, budgetSpentMs, storeShared }: TableRun = {},
) {
  const request = parseQueryRequest(body, settings.maxWindowDays);
  const plantIds = plantScope(caller, request.plantIds);
  const options: CompileOptions = {
    dialect: engine.dialect,
    scope: { customerId: caller.customerId, plantIds, startTime: request.startTime, endTime: request.endTime },
    now: settings.now(),
    rowLimit: settings.rowLimit,
    ...(engine.database ? { timestreamDatabase: engine.database } : {}),
    ...(resultTable === undefined ? {} : { resultTable }),
    ...(request.parameters === undefined ? {} : { parameters: request.parameters }),
    ...(requestProperties === undefined || requestProperties.length === 0 ? {} : { requestProperties }),
    ...(budgetSpentMs === undefined ? {} : { budgetSpentMs }),
    ...(storeShared ? { storeShared } : {}),
    identity: queryIdentity(caller),
  };
  return { text: request.query, options };
}

/** The compiler's QueryError as the service's AppError (the 400 with its positions). */
function compiling<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof QueryError)
      throw new AppError(
        error.code,
        error.message,
        error.toData().map((position) => ({ ...position })),
      );
    throw error;
  }
}

/** Whose share of the engine a query uses: the client, else the plant token, else the customer. */
function admissionKey(caller: Caller): string {
  if (caller.clientId !== undefined) return `client:${caller.clientId}`;
  if (caller.tokenId !== undefined) return `token:${caller.tokenId}`;
  return `customer:${caller.customerId}`;
}

/** QUERY_TIMEOUT (504) naming the request's time limit; also for a batch whose limit ran out between tables. */
export const queryTimeout = (ms: number): AppError =>
  new AppError('QUERY_TIMEOUT', `the query ran longer than ${ms} ms; narrow the time window or summarize more`);

/**
 * Runs the query (after its key discoveries, if any) with a place in the engine, answering QUERY_TIMEOUT at the deadline even when the
 * engine has not stopped yet; the place is given back only when the engine has really stopped.
 */
async function runWithinLimits<T>(
  work: (signal: QuerySignal) => Promise<T>,
  caller: Caller,
  settings: QuerySettings,
  timeLimitMs = settings.timeoutMs,
): Promise<T> {
  const deadline = Date.now() + settings.timeoutMs;
  const release: Release = settings.admission
    ? await settings.admission.enter(admissionKey(caller), deadline)
    : () => undefined;
  const abort = new QueryAbort();
  const running = work(abort);
  running.then(release, release);
  // One promise settled by the work or by the deadline, whichever comes first (no Promise.race:
  // fewer promises per request). The error is made only at the deadline: it captures its stack.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        const error = queryTimeout(timeLimitMs);
        abort.abort(error);
        reject(error);
      },
      Math.max(0, deadline - Date.now()),
    );
    running.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * `table`: which table of a batch or of a query ending in fork/facet (lib/query/result-tables.ts);
 * none: such a query is refused, this answer being one table; and the Kusto routes' options.
 * @throws AppError: the request's and the compiler's 400s; 429/503 from admission; the engine's
 * errors (ports.ts); QUERY_TIMEOUT (504); QUERY_RESULT_TOO_LARGE (400) when not even one row fits.
 */
export async function runTableQuery(
  body: unknown,
  caller: Caller,
  engine: QueryEngine,
  settings: QuerySettings,
  table: TableRun = {},
): Promise<TableResponse> {
  return runPrepared(prepareTable(body, caller, engine, settings, table), caller, engine, settings);
}

/** A table's query compiled and not yet run: a caller of several tables compiles them all first. */
export interface PreparedTable {
  readonly text: string;
  readonly options: CompileOptions;
  readonly plan: CompilePlan;
}

/** runTableQuery's compile. @throws AppError: the request's and the compiler's 400s. */
export function prepareTable(
  body: unknown,
  caller: Caller,
  engine: QueryEngine,
  settings: QuerySettings,
  table: TableRun = {},
): PreparedTable {
  const { text, options } = prepareRequest(body, caller, engine, settings, table);
  return { text, options, plan: compiling(() => compilePlan(text, options)) };
}

/**
 * runTableQuery's run of a prepared table; `timeLimitMs`: the whole request's time limit, named in
 * QUERY_TIMEOUT when settings.timeoutMs is only what is left of it; `session`: the request's
 * session (QueryEngine.session), where the table first stores the values it reads that no earlier
 * table stored, in the same place and time limit. @throws AppError as runTableQuery.
 */
export async function runPrepared(
  { text, options, plan }: PreparedTable,
  caller: Caller,
  engine: QueryEngine,
  settings: QuerySettings,
  timeLimitMs?: number,
  session?: QuerySession,
): Promise<TableResponse> {
  if (session) engine = session;
  // The query's own servertimeout (a set statement, the request's options) when it is what cuts the
  // run short, rather than the request's limit (a batch's `set servertimeout = 2s` stops at 2 s).
  const own = plan.properties?.timeoutMs;
  if (own !== undefined && own < settings.timeoutMs) timeLimitMs = own;
  settings = limitedSettings(settings, plan.properties, DEFAULT_MAX_RESPONSE_BYTES);
  const answer = await runWithinLimits(
    async (signal) => {
      // A plugin whose columns come from the data first reads its keys, in the same place and time limit.
      const compiled =
        plan.kind === 'compiled'
          ? plan.query
          : await discoverKeys(
              plan,
              (found) => compiling(() => compilePlan(text, options, found)),
              (p, rows) => compiling(() => p.read(rows)),
              engine,
              signal,
            );
      for (const value of compiled.stored ?? []) {
        if (!session) throw new TypeError('a query compiled with storeShared runs in a session');
        await session.store(value, { signal });
      }
      const answer = new TableAnswer(compiled.columns.map(responseColumn), {
        rowLimit: settings.rowLimit,
        maxResponseBytes: settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        ...(compiled.renderHint ? { render: compiled.renderHint } : {}),
      });
      await engine.run(
        compiled.sql,
        compiled.columns.map((c) => c.type),
        answer,
        { signal },
      );
      return answer;
    },
    caller,
    settings,
    timeLimitMs,
  );
  return answer.finish();
}

export function explainQuery(body: unknown, caller: Caller, engine: QueryEngine, settings: QuerySettings) {
  const compiled = compileRequest(body, caller, engine, settings);
  return {
    data: {
      dialect: engine.dialect,
      sql: compiled.sql,
      columns: compiled.columns.map(responseColumn),
      ...(compiled.renderHint ? { render: compiled.renderHint } : {}),
    },
  };
}
