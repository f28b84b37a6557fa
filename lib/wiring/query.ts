// The query engine and settings of the running configuration (DuckDB locally, Timestream deployed).
import { config, queryConcurrencyOf, type Config } from '../core/config';
import { QueryAdmission, type AdmissionLimits } from '../query-api/admission';
import type { QueryEngine } from '../query-api/ports';
import type { QuerySettings } from '../query-api/service';
import { once, onceSync } from './once';

export const queryEngine: () => Promise<QueryEngine> = once(async () => {
  const cfg = config();
  if (cfg.TELEMETRY_BACKEND === 'duckdb') {
    // Imported lazily: a deployed function never loads the native DuckDB module.
    const { duckDbQueryEngine } = await import('../adapters/duckdb/query-engine');
    return duckDbQueryEngine(cfg.DUCKDB_PATH);
  }
  const { timestreamQueryEngine } = await import('../adapters/timestream/query-engine');
  return timestreamQueryEngine(cfg.TIMESTREAM_DATABASE);
});

/**
 * The admission limits of a configuration (docs/query-api.md, "Limits"): half of libuv's pool
 * for queries, a quarter of those for one client, as many waiting as running. That queries leave
 * threads to token checks is checked where the configuration is parsed (lib/core/config.ts).
 */
export function admissionLimits(
  cfg: Pick<Config, 'QUERY_CONCURRENCY' | 'QUERY_CONCURRENCY_PER_CLIENT' | 'UV_THREADPOOL_SIZE'>,
): AdmissionLimits {
  const concurrency = queryConcurrencyOf(cfg);
  const perClient = Math.min(concurrency, cfg.QUERY_CONCURRENCY_PER_CLIENT ?? Math.max(1, Math.floor(concurrency / 4)));
  return { concurrency, perClient, queueLength: concurrency, retryAfterSeconds: 2 };
}

const admission = onceSync(() => new QueryAdmission(admissionLimits(config())));

export function querySettings(): QuerySettings {
  const cfg = config();
  return {
    rowLimit: cfg.QUERY_ROW_LIMIT,
    timeoutMs: cfg.QUERY_TIMEOUT_MS,
    maxWindowDays: cfg.QUERY_MAX_WINDOW_DAYS,
    maxResponseBytes: cfg.QUERY_MAX_RESPONSE_BYTES,
    admission: admission(),
    now: () => new Date(),
  };
}
