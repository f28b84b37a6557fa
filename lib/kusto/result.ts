// What the Kusto encoders (v2 frames, v1 tables) get from a query run, and the partial query
// failure Kusto reports when it cuts a result (Kusto docs, "Query limits", "Result truncation":
// the rows up to the limit are sent, then the failure; E_QUERY_RESULT_SET_TOO_LARGE).
import type { RenderHint } from '../query';
import type { KustoColumn } from './types';

export interface KustoTruncation {
  readonly reason: 'rowLimit' | 'responseBytes';
  readonly rowLimit: number;
  readonly maxResponseBytes: number;
}

export interface KustoQueryResult {
  /** The table's name (fork/facet legs); PrimaryResult when not given. */
  readonly name?: string;
  readonly columns: readonly KustoColumn[];
  readonly rows: readonly (readonly unknown[])[];
  readonly render?: RenderHint;
  readonly truncation?: KustoTruncation;
  /** The further result tables of a query ending in fork/facet, each a primary result as this one. */
  readonly more?: readonly KustoQueryResult[];
}

/** Every primary result table of an answer, in order. */
export const primaryTables = (result: KustoQueryResult): readonly KustoQueryResult[] => [
  result,
  ...(result.more ?? []),
];

/** The first truncation of an answer's tables: the partial failure reported for the whole answer. */
export const firstTruncation = (result: KustoQueryResult): KustoTruncation | undefined =>
  primaryTables(result).find((t) => t.truncation)?.truncation;

/** Correlation and timing of one request, written into the status tables. */
export interface KustoRequestInfo {
  readonly clientRequestId: string;
  readonly activityId: string;
  readonly now: Date;
  readonly executionMs: number;
}

/** Kusto's HRESULT of E_QUERY_RESULT_SET_TOO_LARGE (0x80DA0003), as the signed int32 it writes. */
export const E_QUERY_RESULT_SET_TOO_LARGE = 0x80da0003 | 0;

/** The text Kusto gives a truncated result, with our limit in place of its own. */
export function truncationMessage(t: KustoTruncation): string {
  return t.reason === 'rowLimit'
    ? `Query result set has exceeded the internal record count limit ${t.rowLimit} (E_QUERY_RESULT_SET_TOO_LARGE; see docs/kusto-protocol.md): the first ${t.rowLimit} records were returned; summarize, filter or take fewer rows`
    : `Query result set has exceeded the internal data size limit ${t.maxResponseBytes} (E_QUERY_RESULT_SET_TOO_LARGE; see docs/kusto-protocol.md): the records that fit were returned; project fewer columns or take fewer rows`;
}

/** The OneApiErrors entry of a truncated result (a partial query failure: not permanent). */
export function truncationError(t: KustoTruncation, info: KustoRequestInfo) {
  return {
    error: {
      code: 'LimitsExceeded',
      message: 'Request is invalid and cannot be executed.',
      '@type': 'Kusto.Data.Exceptions.KustoServicePartialQueryFailureLimitsExceededException',
      '@message': `Query execution has exceeded the allowed limits (80DA0003): ${truncationMessage(t)}`,
      '@context': {
        timestamp: info.now.toISOString(),
        clientRequestId: info.clientRequestId,
        activityId: info.activityId,
      },
      '@permanent': false,
    },
  };
}
