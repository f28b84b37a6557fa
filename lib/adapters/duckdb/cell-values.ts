// DuckDB's cells as the response's values (lib/query/values.ts), read straight from the vectors
// for the column kinds of nearly every answer. @duckdb/node-api's JSON converter first makes a
// text of each cell (a timestamp's DuckDB text, a BIGINT's decimal text) that convertValue then
// parses again (npm run bench -- query-duckdb times both ways: the summarize's rows of a timestamp
// and a real now convert in about a third of the time). Every other pair of vector and KQL type
// still goes through that converter, so the answer is the same value for value
// (test/unit/adapters/duckdb-cell-values.test.ts compares the two paths).
import {
  DuckDBBigIntVector,
  DuckDBBooleanVector,
  DuckDBDoubleVector,
  DuckDBTimestampVector,
  DuckDBVarCharVector,
  JsonDuckDBValueConverter,
  type DuckDBVector,
} from '@duckdb/node-api';
import type { KqlType } from '../../query';
import { convertValue, datetimeFromMicros } from '../../query/values';

/** One column's cell of a row (its index in the chunk) as the response's value. */
export type CellReader = (row: number) => unknown;

/**
 * Whether convertValue of the vector's own item gives what it gives of the JSON converter's value:
 * the converter only spells these items as text (a bigint as decimal digits, NaN as 'NaN'), which
 * convertValue reads back to the same value for these types.
 */
function itemConvertsAsJson(vector: DuckDBVector, type: KqlType): boolean {
  switch (type) {
    case 'string':
    case 'guid':
    case 'dynamic':
      return vector instanceof DuckDBVarCharVector;
    case 'real':
      return vector instanceof DuckDBDoubleVector;
    case 'long':
    case 'timespan':
      return vector instanceof DuckDBBigIntVector;
    case 'bool':
      return vector instanceof DuckDBBooleanVector;
    default:
      return false;
  }
}

/**
 * The reader of a column of KQL type `type` from its vector; `undefined` (the SQL gave fewer
 * columns than the query's schema) reads as convertValue of a missing value, as convertRow does.
 */
export function cellReader(vector: DuckDBVector | undefined, type: KqlType): CellReader {
  if (vector === undefined) return () => convertValue(undefined, type);
  if (vector instanceof DuckDBTimestampVector && type === 'datetime') {
    return (row) => {
      const cell = vector.getItem(row);
      return cell === null ? null : datetimeFromMicros(cell.micros);
    };
  }
  if (itemConvertsAsJson(vector, type)) return (row) => convertValue(vector.getItem(row), type);
  return (row) =>
    convertValue(JsonDuckDBValueConverter(vector.getItem(row), vector.type, JsonDuckDBValueConverter), type);
}
