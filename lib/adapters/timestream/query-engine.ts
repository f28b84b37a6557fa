// QueryEngine on Amazon Timestream (the contract is lib/query-api/ports.ts): pages through
// NextToken (a page may hold no rows, even the first), converts each Datum's text back to the KQL
// type of its column into the answer, and cancels the query when the answer is full or the
// service aborts. Timestream's errors become the contract's AppErrors (timestreamError).
import { CancelQueryCommand, QueryCommand, TimestreamQueryClient, type Datum } from '@aws-sdk/client-timestream-query';
import { convertValue, type KqlType } from '../../query';
import { followedSignal, type QuerySignal } from '../../query-api/abort';
import { engineFailure, type QueryEngine, type RowSink } from '../../query-api/ports';

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

/** Timestream's own time limit for a query (60 s): the service's limit is usually shorter. */
const TIMED_OUT = /\btime(?:d)? ?out\b/i;
/** A row larger than a result page may hold (1 MB): "max page response size has been exceeded". */
const ROW_TOO_LARGE = /max page response size/i;
const RESOURCES = /memory|resource/i;

/**
 * The contract's AppError (ENGINE_FAILURES, lib/query-api/ports.ts) of a Timestream Query failure;
 * the error itself for a deployment fault (AccessDeniedException, ResourceNotFoundException,
 * InvalidEndpointException, anything unknown), which the service answers with 500 and logs.
 */
export function timestreamError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const why = firstLine(error.message);
  const detail = { engine: 'timestream', kind: error.name } as const;
  const throttled = () =>
    engineFailure(
      'throttled',
      'the telemetry engine is throttling queries; retry shortly',
      { ...detail, retryAfterSeconds: THROTTLED_RETRY_SECONDS },
      error,
    );
  const unavailable = (message = 'the telemetry engine is unavailable; retry shortly') =>
    engineFailure('unavailable', message, { ...detail, retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS }, error);
  switch (error.name) {
    case 'ValidationException':
      return engineFailure('refused', `the telemetry engine cannot run this query: ${why}`, detail, error);
    case 'QueryExecutionException':
      if (ROW_TOO_LARGE.test(why))
        return engineFailure(
          'resultTooLarge',
          `a row of the answer is larger than the telemetry engine can return (${why}); return fewer or smaller columns`,
          detail,
          error,
        );
      if (TIMED_OUT.test(why))
        return engineFailure(
          'timeout',
          `the telemetry engine stopped the query at its time limit (${why}); narrow the time window or summarize more`,
          detail,
          error,
        );
      if (RESOURCES.test(why))
        return engineFailure(
          'memory',
          `the query needs more than the telemetry engine allows (${why}); narrow the time window or summarize more`,
          detail,
          error,
        );
      return engineFailure('data', `the query failed on a value: ${why}`, detail, error);
    case 'ThrottlingException':
      return throttled();
    case 'ConflictException':
      // "Unable to poll results for a cancelled query": stopped by someone other than this service.
      return unavailable('the telemetry engine stopped the query; retry shortly');
    case 'InternalServerException':
    case 'ServiceUnavailable':
    case 'ServiceUnavailableException':
    case 'ServiceQuotaExceededException':
      // The account's query capacity, not this caller's rate: the engine is busy for everyone.
      return unavailable();
    default:
      if (status === 429) return throttled();
      if (status !== undefined && status >= 500) return unavailable();
      return error;
  }
}

/** Reads the query's pages into the sink; `requests`: the AbortSignal of the SDK's calls. */
async function readPages(
  client: TimestreamQueryClient,
  sql: string,
  types: readonly KqlType[],
  sink: RowSink,
  signal: QuerySignal,
  requests: AbortSignal,
): Promise<void> {
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
      page = await client.send(new QueryCommand({ QueryString: sql, NextToken: nextToken }), {
        abortSignal: requests,
      });
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
}

export function timestreamQueryEngine(
  database: string,
  client: TimestreamQueryClient = new TimestreamQueryClient({}),
): QueryEngine {
  return {
    dialect: 'timestream',
    database,
    async run(sql, types, sink, { signal }) {
      // The SDK's calls take a real AbortSignal: one per query, negligible beside its round trips.
      const requests = followedSignal(signal);
      try {
        await readPages(client, sql, types, sink, signal, requests.signal);
      } finally {
        requests.done();
      }
    },
  };
}
