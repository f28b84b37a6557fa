// What the query service needs from a telemetry store's read side, and the one error contract
// every engine keeps (docs/query-api.md, "Errors"; each code in docs/errors.md).
import { AppError, type ErrorCode } from '../core/errors';
import type { KqlType, StoredValue } from '../query';
import type { QuerySignal } from './abort';

/** Where an engine puts the rows of an answer, in order, already in the response's JSON values. */
export interface RowSink {
  /** Bytes the answer can still take (as serialised, see answer.ts). */
  readonly remainingBytes: number;
  /** Takes the next row. False when the answer is full: the engine then reads no more rows. */
  push(row: unknown[]): boolean;
  /**
   * The next row is known, before converting it, to need at least `minBytes` (more than
   * remainingBytes); `column` holds its largest cell. The answer ends there: the engine reads no
   * more rows. Engines call it so that a huge cell is never converted on the event loop.
   */
  oversized(minBytes: number, column: number): false;
}

export interface RunOptions {
  /**
   * Aborted when the service gives up on the query (its time limit), with the error the caller
   * answers as the reason. The engine stops as soon as it can and rejects with that reason. An
   * AbortSignal is one (abort.ts).
   */
  readonly signal: QuerySignal;
}

/**
 * The one error contract of every QueryEngine (docs/errors.md has each code's status): what can go
 * wrong while an engine runs a query, and the only AppError code each may become.
 * - refused: the engine refuses the statement (nesting too deep, a function or construct it cannot
 *   run, a statement the sandbox forbids); the query has to be written differently. 400.
 * - data: a value fails while the query runs (overflow, conversion, out of range). 400.
 * - memory: the query needs more memory than the engine may use. 400.
 * - resultTooLarge: one row of the answer is larger than the engine can return. 400.
 * - timeout: the engine's own time limit stopped the query (the service's limit is the signal). 504.
 * - throttled: the engine throttles this caller or account. 429 with `retryAfterSeconds`.
 * - unavailable: the engine is down or busy, or stopped the query itself. 503 with `retryAfterSeconds`.
 * Everything else (a deployment fault: access denied, an unknown table, a bad endpoint; a disk
 * error) is NOT translated: the engine throws it as it is, and the service answers 500 and logs it.
 */
export const ENGINE_FAILURES = {
  refused: 'QUERY_ENGINE_REFUSED',
  data: 'QUERY_DATA_ERROR',
  memory: 'QUERY_MEMORY_LIMIT',
  resultTooLarge: 'QUERY_RESULT_TOO_LARGE',
  timeout: 'QUERY_TIMEOUT',
  throttled: 'TOO_MANY_REQUESTS',
  unavailable: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<string, ErrorCode>;

export type EngineFailure = keyof typeof ENGINE_FAILURES;
/** The failures a client should retry later: they carry `retryAfterSeconds`. */
export type RetryableFailure = 'throttled' | 'unavailable';

/** What an engine says about a failure besides the message: its name and the engine's own kind. */
export interface EngineErrorDetail extends Readonly<Record<string, unknown>> {
  readonly engine: QueryEngine['dialect'];
  readonly kind: string;
}

/**
 * The contract's AppError of a failure (ENGINE_FAILURES); engines build every error they
 * translate with this, so none can throw a code outside the contract.
 */
export function engineFailure(
  failure: Exclude<EngineFailure, RetryableFailure>,
  message: string,
  detail: EngineErrorDetail,
  cause: unknown,
): AppError;
export function engineFailure(
  failure: RetryableFailure,
  message: string,
  detail: EngineErrorDetail & { readonly retryAfterSeconds: number },
  cause: unknown,
): AppError;
export function engineFailure(
  failure: EngineFailure,
  message: string,
  detail: EngineErrorDetail,
  cause: unknown,
): AppError {
  const code = ENGINE_FAILURES[failure];
  if (failure === 'throttled' || failure === 'unavailable') {
    const { retryAfterSeconds, ...rest } = detail;
    // `{retryAfterSeconds}` alone in its own entry, as every retry-later refusal has it (retryLater).
    return new AppError(code, message, [{ retryAfterSeconds }, rest], { cause });
  }
  return new AppError(code, message, detail, { cause });
}

export interface QueryEngine {
  readonly dialect: 'duckdb' | 'timestream';
  /** Timestream only: the database the SQL names. */
  readonly database?: string;
  /**
   * Runs generated SQL and pushes its rows into the sink until the rows end or the sink is full.
   * Settles only when the engine has stopped working on the query, so a caller can count the
   * queries really running.
   * @throws signal.reason once the signal is aborted (the service's time limit: QUERY_TIMEOUT).
   * @throws AppError of ENGINE_FAILURES (engineFailure) for everything a query can cause, never a
   *   raw engine error.
   * @throws the engine's error as it is for anything else (a deployment fault, a disk error),
   *   which the service answers with 500 and logs.
   */
  run(sql: string, types: readonly KqlType[], sink: RowSink, options: RunOptions): Promise<void>;
  /**
   * Engines that can keep tables for one request (DuckDB): runs `work` with a session whose runs
   * share those tables (a batch's materialize() values, stored once and read by every result
   * table). The tables are dropped when the session ends, whether work succeeds or fails, and the
   * session ends only after its last statement has stopped. Throws what work throws.
   */
  session?<T>(work: (session: QuerySession) => Promise<T>): Promise<T>;
}

/** An engine whose runs share the tables stored in it (QueryEngine.session). */
export interface QuerySession extends QueryEngine {
  /**
   * Stores the rows of `value.sql` as table `value.name` for the session's later runs; a name
   * already stored is not stored again. @throws as QueryEngine.run.
   */
  store(value: StoredValue, options: RunOptions): Promise<void>;
}

/**
 * A refusal the client should retry later: 429 or 503 with `data: [{retryAfterSeconds}]`, which
 * the HTTP chain also sends as the `Retry-After` header.
 */
export function retryLater(
  code: 'TOO_MANY_REQUESTS' | 'SERVICE_UNAVAILABLE',
  message: string,
  retryAfterSeconds: number,
  cause?: unknown,
): AppError {
  return new AppError(code, message, { retryAfterSeconds }, { cause });
}
