// Kusto's names for the scalar types, as its REST responses write them: the KQL name (v2
// `ColumnType`, v1 `ColumnType`), the v1 `DataType` and the CLR type of `.show ... schema as json`
// (Kusto docs, "Scalar data types" and "Query V1 HTTP response").
import type { KqlType } from '../query';

export interface KustoColumn {
  readonly name: string;
  readonly type: KqlType;
}

const V1_DATA_TYPES: Readonly<Record<KqlType, string>> = {
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

/** Schema commands name the CLR type; Kusto stores bool as System.SByte. */
const CLR_TYPES: Readonly<Record<KqlType, string>> = {
  string: 'System.String',
  datetime: 'System.DateTime',
  dynamic: 'System.Object',
  long: 'System.Int64',
  int: 'System.Int32',
  real: 'System.Double',
  bool: 'System.SByte',
  timespan: 'System.TimeSpan',
  guid: 'System.Guid',
  decimal: 'System.Data.SqlTypes.SqlDecimal',
};

export const v1DataType = (type: KqlType): string => V1_DATA_TYPES[type];
export const clrType = (type: KqlType): string => CLR_TYPES[type];

/** A v2 column: `{ColumnName, ColumnType}`. */
export const v2Column = (c: KustoColumn) => ({ ColumnName: c.name, ColumnType: c.type });

/** A v1 column: `{ColumnName, DataType, ColumnType}`. */
export const v1Column = (c: KustoColumn) => ({ ColumnName: c.name, DataType: v1DataType(c.type), ColumnType: c.type });
