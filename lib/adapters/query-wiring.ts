// The query engine and settings of the running configuration (DuckDB locally, Timestream deployed).
import { config } from '../core/config';
import type { QueryEngine } from '../query-api/ports';
import type { QuerySettings } from '../query-api/service';

let engine: Promise<QueryEngine> | undefined;

export function queryEngine(): Promise<QueryEngine> {
  engine ??= (async () => {
    const cfg = config();
    if (cfg.TELEMETRY_BACKEND === 'duckdb') {
      // Imported lazily: a deployed function never loads the native DuckDB module.
      const { duckDbQueryEngine } = await import('./duckdb/query-engine');
      return duckDbQueryEngine(cfg.DUCKDB_PATH);
    }
    const { timestreamQueryEngine } = await import('./timestream/query-engine');
    return timestreamQueryEngine(cfg.TIMESTREAM_DATABASE);
  })();
  return engine;
}

export function querySettings(): QuerySettings {
  const cfg = config();
  return { rowLimit: cfg.QUERY_ROW_LIMIT, timeoutMs: cfg.QUERY_TIMEOUT_MS, maxWindowDays: cfg.QUERY_MAX_WINDOW_DAYS, now: () => new Date() };
}
