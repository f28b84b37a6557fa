// What the query service needs from a telemetry store's read side.
import type { KqlType } from '../query';

export interface QueryEngine {
  readonly dialect: 'duckdb' | 'timestream';
  /** Timestream only: the database the SQL names. */
  readonly database?: string;
  /**
   * Runs generated SQL and returns rows already converted to the response's JSON values.
   * @throws AppError QUERY_TIMEOUT past timeoutMs; AppError INVALID_INPUT for an error the data
   * causes (e.g. an overflow), never a raw engine error for something the query text decides.
   */
  run(sql: string, types: readonly KqlType[], options: { readonly timeoutMs: number }): Promise<unknown[][]>;
}
