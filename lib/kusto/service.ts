// The Kusto query and management endpoints over the native query service: the request is turned
// into the native one (query, the time window of Kusto's datetime-scope options, every plant the
// caller may read, the other request properties of its Options as the compiler's set statements),
// run by lib/query-api/service.ts with the same scope and limits, and the answer is encoded as
// Kusto's v2 frames or v1 tables.
import type { Caller } from '../auth/caller';
import { AppError } from '../core/errors';
import {
  prepareTable,
  queryTimeout,
  runPrepared,
  runTableQuery,
  DEFAULT_MAX_RESPONSE_BYTES,
  type QuerySettings,
  type TableResponse,
} from '../query-api/service';
import type { QueryEngine, QuerySession } from '../query-api/ports';
import { resultTableNames, type RenderHint } from '../query';
import type { KustoTrace } from './chain';
import { v2ResponseJson } from './frames';
import { runCommand } from './mgmt';
import { checkDatabase, optionStatements, parseKustoRequest, timeWindow } from './request';
import type { KustoQueryResult, KustoRequestInfo } from './result';
import { v1CommandJson, v1QueryJson } from './v1';

/**
 * Bytes kept free for Kusto's framing around the rows (the fixed tables, the status rows and a
 * truncation error: under 4 KB plus the column list): the native byte cap counts only the native
 * answer's text, whose rows are never shorter than the Kusto rows made from them (values.ts).
 */
export const FRAMING_BYTES = 16_384;

/** What the rows keep under a cap smaller than the framing reserve; the framing itself stays under 4 KB. */
const MIN_ROW_BYTES = 4_096;

export type KustoVersion = 'v1' | 'v2';

async function runQuery(
  body: unknown,
  caller: Caller,
  engine: QueryEngine,
  settings: QuerySettings,
): Promise<KustoQueryResult> {
  const request = parseKustoRequest(body);
  if (request.csl.trim().startsWith('.'))
    throw new AppError(
      'INVALID_INPUT',
      'management commands go to /v1/rest/mgmt (the SDKs do this for text starting with a dot)',
      { field: 'csl' },
    );
  checkDatabase(request.db, caller);
  const window = timeWindow(request.options, settings.maxWindowDays, settings.now());
  // Checked before anything runs; applied by the compiler with the query's own set statements.
  const properties = optionStatements(request.options);
  // The smallest configurable cap (10,000 bytes) still leaves the rows a little room.
  const maxResponseBytes = Math.max(
    MIN_ROW_BYTES,
    (settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES) - FRAMING_BYTES,
  );
  const native = { query: request.csl, ...window, ...(request.parameters ? { parameters: request.parameters } : {}) };
  const names = resultTableNames(request.csl);
  if (names === undefined)
    return kustoTable(
      await runTableQuery(native, caller, engine, { ...settings, maxResponseBytes }, { requestProperties: properties }),
    );
  // A batch or a query ending in fork/facet: each result table is a compile and a run, sharing what
  // one query may use: the byte cap, the time limit and the compile budget. Every table is compiled
  // before any runs, so that a statement that does not compile costs the engine nothing; the budget
  // carries only the compile time spent, never the engine's. On an engine with sessions, the tables
  // run in one, where each materialize() value is stored once and read by every table (batches page).
  const deadline = Date.now() + settings.timeoutMs;
  const share = Math.floor(maxResponseBytes / names.length);
  const storeShared = engine.session !== undefined;
  let budgetSpentMs = 0;
  const prepared = names.map((_, resultTable) => {
    const from = performance.now();
    const table = prepareTable(native, caller, engine, settings, {
      resultTable,
      requestProperties: properties,
      budgetSpentMs,
      ...(storeShared ? { storeShared } : {}),
    });
    budgetSpentMs += performance.now() - from;
    return table;
  });
  const runTables = async (session?: QuerySession): Promise<KustoQueryResult> => {
    const tables: KustoQueryResult[] = [];
    for (const [resultTable, name] of names.entries()) {
      const timeoutMs = deadline - Date.now();
      if (timeoutMs <= 0) throw queryTimeout(settings.timeoutMs);
      const answer = await runPrepared(
        prepared[resultTable]!,
        caller,
        engine,
        { ...settings, maxResponseBytes: share, timeoutMs },
        settings.timeoutMs,
        session,
      );
      tables.push({ ...kustoTable(answer), name });
    }
    const [first, ...more] = tables;
    return { ...first!, more };
  };
  return engine.session ? engine.session(runTables) : runTables();
}

function kustoTable(answer: TableResponse): KustoQueryResult {
  const { meta } = answer;
  return {
    columns: answer.data.columns.map((c) => ({ name: c.name, type: c.columnType })),
    rows: answer.data.rows,
    ...(meta.render === undefined ? {} : { render: meta.render as RenderHint }),
    ...(meta.truncated && meta.truncationReason
      ? {
          truncation: {
            reason: meta.truncationReason,
            rowLimit: meta.rowLimit,
            maxResponseBytes: meta.maxResponseBytes,
          },
        }
      : {}),
  };
}

/** POST /v2/rest/query and /v1/rest/query. @throws AppError as runTableQuery, and for the Kusto request. */
export async function kustoQuery(
  version: KustoVersion,
  body: unknown,
  caller: Caller,
  engine: QueryEngine,
  settings: QuerySettings,
  trace: KustoTrace,
): Promise<string> {
  const result = await runQuery(body, caller, engine, settings);
  const info: KustoRequestInfo = {
    clientRequestId: trace.clientRequestId,
    activityId: trace.activityId,
    now: trace.receivedAt,
    executionMs: Date.now() - trace.receivedAt.getTime(),
  };
  return version === 'v2' ? v2ResponseJson(result, info) : v1QueryJson(result, info);
}

/** POST /v1/rest/mgmt. @throws AppError FORBIDDEN for a foreign database, QUERY_UNSUPPORTED for other commands. */
export function kustoCommand(body: unknown, caller: Caller, serviceVersion: string): string {
  const request = parseKustoRequest(body);
  const database = checkDatabase(request.db, caller);
  const result = runCommand(request.csl, { database, serviceVersion });
  return v1CommandJson(result.columns, result.rows);
}
