// QueryEngine on the embedded DuckDB file: UTC session, a time limit enforced by interrupting
// the connection, rows read as JSON-friendly values and converted to the response's types.
import type { DuckDBConnection } from '@duckdb/node-api';
import { AppError } from '../../core/errors';
import { convertRows, type KqlType } from '../../query';
import type { QueryEngine } from '../../query-api/ports';
import { withConnection } from './database';

/** DuckDB errors a query's data can cause (not a fault of the service): a 400 for the caller. */
const DATA_ERRORS = /Out of Range|Conversion Error|Invalid Input Error|overflow/i;

async function runWithTimeout(connection: DuckDBConnection, sql: string, timeoutMs: number) {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    connection.interrupt();
  }, timeoutMs);
  try {
    return await connection.runAndReadAll(sql);
  } catch (error) {
    if (timedOut) throw new AppError('QUERY_TIMEOUT', `the query ran longer than ${timeoutMs} ms; narrow the time window or summarize more`);
    const message = (error as Error).message;
    if (DATA_ERRORS.test(message)) throw new AppError('QUERY_SEMANTIC', `the query failed on the data: ${message.split('\n')[0]}`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

export function duckDbQueryEngine(file: string): QueryEngine {
  return {
    dialect: 'duckdb',
    async run(sql: string, types: readonly KqlType[], { timeoutMs }) {
      return withConnection(file, async (connection) => {
        await connection.run("SET TimeZone = 'UTC'");
        const reader = await runWithTimeout(connection, sql, timeoutMs);
        return convertRows(reader.getRowsJson() as unknown[][], [...types]);
      });
    },
  };
}
