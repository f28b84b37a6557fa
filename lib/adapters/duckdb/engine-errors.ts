// DuckDB's errors as the engines' contract has them (ENGINE_FAILURES, lib/query-api/ports.ts):
// everything a query can cause is one of its AppErrors. DuckDB names the kind in front of the
// message ("Binder Error: ..."). No throttling here: the service's admission refuses first.
import { engineFailure } from '../../query-api/ports';
import { MAX_EXPRESSION_DEPTH } from './database';

/** The engine refuses the statement: the query has to be written differently. */
const REFUSED = new Set([
  'parser',
  'binder',
  'catalog',
  'not implemented',
  'permission',
  'syntax',
  'mismatch type',
  'invalid type',
  'parameter not resolved',
  'parameter not allowed',
  'dependency',
]);
/** A value fails while the query runs. */
const DATA = new Set(['conversion', 'out of range', 'invalid input', 'type', 'arithmetic']);

/** Retry-After of a query the engine stopped by itself (not the service's time limit). */
export const INTERRUPTED_RETRY_SECONDS = 1;

/** The kind DuckDB names in front of a message, lower case ("out of range"), if any. */
export function duckDbErrorKind(message: string): string | undefined {
  return /^([A-Za-z ]+?) Error: /.exec(message)?.[1]?.toLowerCase();
}

/** The first line, without the kind, at most 300 characters: no SQL, no candidates list. */
function detail(message: string): string {
  const line = (message.split('\n')[0] ?? '').replace(/^[A-Za-z ]+? Error: /, '').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/**
 * The contract's AppError of a DuckDB failure; the error itself when it is none a query causes
 * (an I/O fault), which the service answers with 500 and logs.
 */
export function engineError(error: unknown, memoryLimit: string): unknown {
  if (!(error instanceof Error)) return error;
  const kind = duckDbErrorKind(error.message);
  if (kind === undefined) return error;
  const why = detail(error.message);
  if (/max expression depth/i.test(error.message)) {
    return engineFailure(
      'refused',
      'the query is nested too deeply for the telemetry engine; use fewer nested or chained expressions (e.g. split a long sum with let)',
      { engine: 'duckdb', kind, maxExpressionDepth: MAX_EXPRESSION_DEPTH },
      error,
    );
  }
  if (REFUSED.has(kind) || /configuration has been locked/i.test(error.message)) {
    return engineFailure(
      'refused',
      `the telemetry engine cannot run this query: ${why}`,
      { engine: 'duckdb', kind },
      error,
    );
  }
  if (DATA.has(kind) || /overflow/i.test(why)) {
    return engineFailure('data', `the query failed on a value: ${why}`, { engine: 'duckdb', kind }, error);
  }
  if (kind === 'out of memory') {
    return engineFailure(
      'memory',
      `the query needs more memory than the telemetry engine may use (${memoryLimit}); narrow the time window, summarize more or return fewer columns`,
      { engine: 'duckdb', kind, memoryLimit },
      error,
    );
  }
  if (kind === 'internal' || kind === 'fatal') {
    // A fault of the engine on this query (withConnection reopened the database behind it):
    // asking again gives the same answer, so it is the query's 400, not a 5xx to retry.
    return engineFailure(
      'refused',
      `the telemetry engine failed on this query (an internal error of the engine); write it differently: ${why}`,
      { engine: 'duckdb', kind },
      error,
    );
  }
  if (kind === 'interrupt') {
    // Not the time limit (the service then answers with its own reason): the engine was stopped.
    return engineFailure(
      'unavailable',
      'the telemetry engine stopped the query; retry shortly',
      { engine: 'duckdb', kind, retryAfterSeconds: INTERRUPTED_RETRY_SECONDS },
      error,
    );
  }
  return error;
}
