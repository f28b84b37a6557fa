// What the query service needs from a telemetry store's read side, and the one error contract
// every engine keeps (docs/query-api.md, "Errors"; each code in docs/errors.md).
import { AppError } from '../core/errors';
import type { KqlType } from '../query';

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
   * answers as the reason. The engine stops as soon as it can and rejects with that reason.
   */
  readonly signal: AbortSignal;
}

export interface QueryEngine {
  readonly dialect: 'duckdb' | 'timestream';
  /** Timestream only: the database the SQL names. */
  readonly database?: string;
  /**
   * Runs generated SQL and pushes its rows into the sink until the rows end or the sink is full.
   * Settles only when the engine has stopped working on the query, so a caller can count the
   * queries really running.
   * @throws signal.reason once the signal is aborted.
   * @throws AppError for everything a query can cause, never a raw engine error:
   *   QUERY_ENGINE_REFUSED (400) the engine refuses the statement (nesting too deep, a function
   *   it cannot run); QUERY_DATA_ERROR (400) a value fails at run time (overflow, conversion,
   *   out of range); QUERY_MEMORY_LIMIT (400) the query needs more memory than allowed;
   *   TOO_MANY_REQUESTS (429) the engine throttles; SERVICE_UNAVAILABLE (503) the engine is
   *   unavailable or stopped the query itself. 429 and 503 carry `retryAfterSeconds` in `data`.
   * Anything else (a deployment fault, an engine bug) is thrown as it is and answered with 500.
   */
  run(sql: string, types: readonly KqlType[], sink: RowSink, options: RunOptions): Promise<void>;
}

/**
 * A refusal the client should retry later: 429 or 503 with `data: [{retryAfterSeconds}]`, which
 * the HTTP chain also sends as the `Retry-After` header.
 */
export function retryLater(code: 'TOO_MANY_REQUESTS' | 'SERVICE_UNAVAILABLE', message: string, retryAfterSeconds: number, cause?: unknown): AppError {
  return new AppError(code, message, { retryAfterSeconds }, { cause });
}
