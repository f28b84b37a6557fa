// The Kusto query v1 response (Kusto docs, "Query V1 HTTP response"): `{Tables: [...]}` with the
// result (Table_0), the query properties (Table_1, the visualization as JSON text), the query
// status (Table_2) and, last, the table of contents that names each table's kind. Management
// commands answer with their one table and no table of contents, as Kusto does.
import {
  E_QUERY_RESULT_SET_TOO_LARGE,
  firstTruncation,
  primaryTables,
  truncationMessage,
  type KustoQueryResult,
  type KustoRequestInfo,
} from './result';
import { v1Column, type KustoColumn } from './types';
import { rowsJson, tableJson } from './values';
import { visualization } from './visualization';

const PROPERTIES_COLUMNS: readonly KustoColumn[] = [{ name: 'Value', type: 'string' }];

const STATUS_COLUMNS: readonly KustoColumn[] = [
  { name: 'Timestamp', type: 'datetime' },
  { name: 'Severity', type: 'int' },
  { name: 'SeverityName', type: 'string' },
  { name: 'StatusCode', type: 'int' },
  { name: 'StatusDescription', type: 'string' },
  { name: 'Count', type: 'int' },
  { name: 'RequestId', type: 'guid' },
  { name: 'ActivityId', type: 'guid' },
  { name: 'SubActivityId', type: 'guid' },
  { name: 'ClientActivityId', type: 'string' },
];

const TOC_COLUMNS: readonly KustoColumn[] = [
  { name: 'Ordinal', type: 'long' },
  { name: 'Kind', type: 'string' },
  { name: 'Name', type: 'string' },
  { name: 'Id', type: 'string' },
  { name: 'PrettyName', type: 'string' },
];

function table(name: string, columns: readonly KustoColumn[], rows: readonly (readonly unknown[])[]): string {
  return tableJson(
    { TableName: name, Columns: columns.map(v1Column) },
    rowsJson(
      rows,
      columns.map((c) => c.type),
    ),
  );
}

/** Severity 2 (Error) for a truncated result, as Kusto reports a partial query failure; else 4 (Info). */
function statusRow(result: KustoQueryResult, info: KustoRequestInfo): unknown[] {
  const truncation = firstTruncation(result);
  const [severity, name, code, text] = truncation
    ? [2, 'Error', E_QUERY_RESULT_SET_TOO_LARGE, truncationMessage(truncation)]
    : [4, 'Info', 0, 'Query completed successfully'];
  return [
    info.now.toISOString(),
    severity,
    name,
    code,
    text,
    1,
    info.activityId,
    info.activityId,
    info.activityId,
    info.clientRequestId,
  ];
}

/** The v1 answer of a query as JSON text. */
export function v1QueryJson(result: KustoQueryResult, info: KustoRequestInfo): string {
  // fork/facet: Table_0 ... Table_(n-1) are the result tables, then the properties, status and contents.
  const primaries = primaryTables(result);
  const n = primaries.length;
  const toc = [
    ...primaries.map((t, i) => [i, 'QueryResult', t.name ?? 'PrimaryResult', info.activityId, '']),
    [n, 'QueryProperties', '@ExtendedProperties', info.activityId, ''],
    [n + 1, 'QueryStatus', 'QueryStatus', info.activityId, ''],
  ];
  return `{"Tables":[${[
    ...primaries.map((t, i) => table(`Table_${i}`, t.columns, t.rows)),
    table(`Table_${n}`, PROPERTIES_COLUMNS, [[JSON.stringify(visualization(result.render))]]),
    table(`Table_${n + 1}`, STATUS_COLUMNS, [statusRow(result, info)]),
    table(`Table_${n + 2}`, TOC_COLUMNS, toc),
  ].join(',')}]}`;
}

/** The v1 answer of a management command: one table. */
export function v1CommandJson(columns: readonly KustoColumn[], rows: readonly (readonly unknown[])[]): string {
  return `{"Tables":[${table('Table_0', columns, rows)}]}`;
}
