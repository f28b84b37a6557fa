// QueryEngine on Amazon Timestream: pages through NextToken (a page may hold no rows, even the
// first), converts each Datum's text back to the KQL type of its column, and cancels the query
// when the time limit passes.
import { CancelQueryCommand, QueryCommand, TimestreamQueryClient, type Datum } from '@aws-sdk/client-timestream-query';
import { AppError } from '../../core/errors';
import { convertValue, type KqlType } from '../../query';
import type { QueryEngine } from '../../query-api/ports';

/** A Datum as plain data: every scalar arrives as text; NULL as NullValue. */
export function datumValue(datum: Datum | undefined, type: KqlType): unknown {
  if (!datum || datum.NullValue) return convertValue(null, type);
  if (datum.ScalarValue !== undefined) return convertValue(datum.ScalarValue, type);
  if (datum.ArrayValue) return datum.ArrayValue.map((d) => datumValue(d, 'dynamic'));
  return convertValue(null, type);
}

export function timestreamQueryEngine(database: string, client: TimestreamQueryClient = new TimestreamQueryClient({})): QueryEngine {
  return {
    dialect: 'timestream',
    database,
    async run(sql, types, { timeoutMs }) {
      const deadline = Date.now() + timeoutMs;
      const rows: unknown[][] = [];
      let nextToken: string | undefined;
      let queryId: string | undefined;
      const timeout = async (): Promise<never> => {
        if (queryId) await client.send(new CancelQueryCommand({ QueryId: queryId })).catch(() => undefined);
        throw new AppError('QUERY_TIMEOUT', `the query ran longer than ${timeoutMs} ms; narrow the time window or summarize more`);
      };
      do {
        const remaining = deadline - Date.now();
        if (remaining <= 0) return timeout();
        let page;
        try {
          page = await client.send(new QueryCommand({ QueryString: sql, NextToken: nextToken }), { abortSignal: AbortSignal.timeout(remaining) });
        } catch (error) {
          if (Date.now() >= deadline) return timeout();
          throw error;
        }
        queryId = page.QueryId ?? queryId;
        for (const row of page.Rows ?? []) rows.push(types.map((type, i) => datumValue(row.Data?.[i], type)));
        nextToken = page.NextToken;
      } while (nextToken);
      return rows;
    },
  };
}
