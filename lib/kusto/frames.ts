// The Kusto query v2 response (Kusto docs, "Query V2 HTTP response"): a JSON array of frames,
// DataSetHeader, the @ExtendedProperties table (the visualization of `render`), the PrimaryResult
// table, QueryCompletionInformation, and DataSetCompletion with HasErrors/Cancelled. A truncated
// result is Kusto's partial query failure: the rows that fit, an Error row in
// QueryCompletionInformation and HasErrors with the OneApiErrors entry.
import {
  firstTruncation,
  primaryTables,
  truncationError,
  truncationMessage,
  E_QUERY_RESULT_SET_TOO_LARGE,
  type KustoQueryResult,
  type KustoRequestInfo,
} from './result';
import { v2Column, type KustoColumn } from './types';
import { rowsJson, tableJson } from './values';
import { visualization } from './visualization';

const EXTENDED_PROPERTIES_COLUMNS: readonly KustoColumn[] = [
  { name: 'TableId', type: 'int' },
  { name: 'Key', type: 'string' },
  { name: 'Value', type: 'dynamic' },
];

export const COMPLETION_COLUMNS: readonly KustoColumn[] = [
  { name: 'Timestamp', type: 'datetime' },
  { name: 'ClientRequestId', type: 'string' },
  { name: 'ActivityId', type: 'guid' },
  { name: 'SubActivityId', type: 'guid' },
  { name: 'ParentActivityId', type: 'guid' },
  { name: 'Level', type: 'int' },
  { name: 'LevelName', type: 'string' },
  { name: 'StatusCode', type: 'int' },
  { name: 'StatusCodeName', type: 'string' },
  { name: 'EventType', type: 'int' },
  { name: 'EventTypeName', type: 'string' },
  { name: 'Payload', type: 'string' },
];

/** QueryCompletionInformation levels: 2 Error, 3 Warning, 4 Info, 6 Stats. */
function completionRows(result: KustoQueryResult, info: KustoRequestInfo): unknown[][] {
  const ids = [info.now.toISOString(), info.clientRequestId, info.activityId, info.activityId, info.activityId];
  const truncation = firstTruncation(result);
  const status = truncation
    ? [
        2,
        'Error',
        E_QUERY_RESULT_SET_TOO_LARGE,
        'LimitsExceeded (0x80DA0003)',
        4,
        'QueryInfo',
        JSON.stringify({ Count: 1, Text: truncationMessage(truncation) }),
      ]
    : [4, 'Info', 0, 'S_OK (0)', 4, 'QueryInfo', JSON.stringify({ Count: 1, Text: 'Query completed successfully' })];
  const stats = [
    6,
    'Stats',
    0,
    'S_OK (0)',
    0,
    'QueryResourceConsumption',
    JSON.stringify({
      ExecutionTime: info.executionMs / 1000,
      dataset_statistics: primaryTables(result).map((t) => ({ table_row_count: t.rows.length })),
    }),
  ];
  return [
    [...ids, ...status],
    [...ids, ...stats],
  ];
}

function dataTable(id: number, name: string, kind: string, columns: readonly KustoColumn[], rowsText: string): string {
  return tableJson(
    { FrameType: 'DataTable', TableId: id, TableKind: kind, TableName: name, Columns: columns.map(v2Column) },
    rowsText,
  );
}

const typesOf = (columns: readonly KustoColumn[]) => columns.map((c) => c.type);

/** The v2 response body as JSON text. */
export function v2ResponseJson(result: KustoQueryResult, info: KustoRequestInfo): string {
  // Kusto writes the Visualization value as JSON text inside the dynamic column.
  const extended = [[1, 'Visualization', JSON.stringify(visualization(result.render))]];
  const truncation = firstTruncation(result);
  const completion = {
    FrameType: 'DataSetCompletion',
    HasErrors: truncation !== undefined,
    Cancelled: false,
    ...(truncation ? { OneApiErrors: [truncationError(truncation, info)] } : {}),
  };
  // fork/facet: one PrimaryResult table per result table, numbered on from 1.
  const primaries = primaryTables(result);
  return `[${[
    JSON.stringify({
      FrameType: 'DataSetHeader',
      IsProgressive: false,
      Version: 'v2.0',
      IsFragmented: false,
      ErrorReportingPlacement: 'InData',
    }),
    dataTable(
      0,
      '@ExtendedProperties',
      'QueryProperties',
      EXTENDED_PROPERTIES_COLUMNS,
      rowsJson(extended, typesOf(EXTENDED_PROPERTIES_COLUMNS)),
    ),
    ...primaries.map((t, i) =>
      dataTable(i + 1, t.name ?? 'PrimaryResult', 'PrimaryResult', t.columns, rowsJson(t.rows, typesOf(t.columns))),
    ),
    dataTable(
      primaries.length + 1,
      'QueryCompletionInformation',
      'QueryCompletionInformation',
      COMPLETION_COLUMNS,
      rowsJson(completionRows(result, info), typesOf(COMPLETION_COLUMNS)),
    ),
    JSON.stringify(completion),
  ].join(',')}]`;
}
