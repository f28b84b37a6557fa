// KQL column types as the response writes them: the columnType / dataType pairs of the Azure
// Data Explorer REST API v1 (KQL-NOTES.md), which the spec's examples follow.
import type { KqlType } from '../query';

const DATA_TYPES: Readonly<Record<KqlType, string>> = {
  string: 'String',
  datetime: 'DateTime',
  dynamic: 'Object',
  long: 'Int64',
  int: 'Int32',
  real: 'Double',
  bool: 'Boolean',
  timespan: 'TimeSpan',
  guid: 'Guid',
  decimal: 'Decimal',
};

export interface ResponseColumn {
  readonly name: string;
  readonly columnType: KqlType;
  readonly dataType: string;
}

export function responseColumn(column: { readonly name: string; readonly type: KqlType }): ResponseColumn {
  return { name: column.name, columnType: column.type, dataType: DATA_TYPES[column.type] };
}
