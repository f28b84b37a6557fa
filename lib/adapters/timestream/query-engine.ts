// QueryEngine on Amazon Timestream (the contract is lib/query-api/ports.ts): pages through
// NextToken (a page may hold no rows, even the first), converts each Datum's text back to the KQL
// type of its column into the answer, and cancels the query when the answer is full or the
// service aborts. Timestream's errors become the contract's AppErrors.
import { CancelQueryCommand, QueryCommand, TimestreamQueryClient, type Datum } from '@aws-sdk/client-timestream-query';
import { AppError } from '../../core/errors';
import { convertValue, type KqlType } from '../../query';
import { retryLater, type QueryEngine } from '../../query-api/ports';

/** A Datum as plain data: every scalar arrives as text; NULL as NullValue. */
export function datumValue(datum: Datum | undefined, type: KqlType): unknown {
  if (!datum || datum.NullValue) return convertValue(null, type);
  if (datum.ScalarValue !== undefined) return convertValue(datum.ScalarValue, type);
  if (datum.ArrayValue) return datum.ArrayValue.map((d) => datumValue(d, 'dynamic'));
  return convertValue(null, type);
}

/** Retry-After of a throttled query, and of an unavailable service. */
export const THROTTLED_RETRY_SECONDS = 2;
export const UNAVAILABLE_RETRY_SECONDS = 5;

function firstLine(message: string): string {
  const line = message.split('\n')[0]?.trim() ?? '';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/**
 * The AppError of a Timestream Query failure; the error itself for a deployment fault (access
 * denied, unknown database or table, bad endpoint), which the service answers with 500 and logs.
 */
export function timestreamError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const why = firstLine(error.message);
  switch (error.name) {
    case 'ValidationException':
      return new AppError('QUERY_ENGINE_REFUSED', `the telemetry engine cannot run this query: ${why}`, { engine: 'timestream', kind: error.name }, { cause: error });
    case 'QueryExecutionException':
      if (/memory|resource/i.test(why)) return new AppError('QUERY_MEMORY_LIMIT', `the query needs more than the telemetry engine allows (${why}); narrow the time window or summarize more`, { engine: 'timestream', kind: error.name }, { cause: error });
      return new AppError('QUERY_DATA_ERROR', `the query failed on a value: ${why}`, { engine: 'timestream', kind: error.name }, { cause: error });
    case 'ThrottlingException':
      return retryLater('TOO_MANY_REQUESTS', 'the telemetry engine is throttling queries; retry shortly', THROTTLED_RETRY_SECONDS, error);
    case 'InternalServerException':
    case 'ServiceUnavailable':
    case 'ServiceUnavailableException':
    case 'ServiceQuotaExceededException':
      return retryLater('SERVICE_UNAVAILABLE', 'the telemetry engine is unavailable; retry shortly', UNAVAILABLE_RETRY_SECONDS, error);
    default:
      if (status === 429) return retryLater('TOO_MANY_REQUESTS', 'the telemetry engine is throttling queries; retry shortly', THROTTLED_RETRY_SECONDS, error);
      if (status !== undefined && status >= 500) return retryLater('SERVICE_UNAVAILABLE', 'the telemetry engine is unavailable; retry shortly', UNAVAILABLE_RETRY_SECONDS, error);
      return error;
  }
}

export function timestreamQueryEngine(database: string, client: TimestreamQueryClient = new TimestreamQueryClient({})): QueryEngine {
  return {
    dialect: 'timestream',
    database,
    async run(sql, types, sink, { signal }) {
      let nextToken: string | undefined;
      let queryId: string | undefined;
      const cancel = async (): Promise<void> => {
        if (queryId) await client.send(new CancelQueryCommand({ QueryId: queryId })).catch(() => undefined);
      };
      do {
        if (signal.aborted) {
          await cancel();
          throw signal.reason;
        }
        let page;
        try {
          page = await client.send(new QueryCommand({ QueryString: sql, NextToken: nextToken }), { abortSignal: signal });
        } catch (error) {
          if (signal.aborted) {
            await cancel();
            throw signal.reason;
          }
          throw timestreamError(error);
        }
        queryId = page.QueryId ?? queryId;
        for (const row of page.Rows ?? []) {
          if (!sink.push(types.map((type, i) => datumValue(row.Data?.[i], type)))) {
            if (page.NextToken) await cancel(); // the answer is full: the rest is not needed
            return;
          }
        }
        nextToken = page.NextToken;
      } while (nextToken);
    },
  };
}
