// Cell values as Kusto's JSON writes them, from the query service's response values (which already
// follow Kusto for datetime, timespan, guid, dynamic, bool and real NaN/Infinity: lib/query/values.ts).
// Two differences remain: a long beyond 2^53 is a JSON number in Kusto (the service keeps it as a
// decimal string so JavaScript does not round it), and decimal is a JSON string in Kusto, so no
// digit is lost to a double.
import type { KqlType } from '../query';

const INTEGER_TEXT = /^-?\d+$/;

/** One cell's JSON text. */
export function cellJson(value: unknown, type: KqlType): string {
  if (value === null || value === undefined) return 'null';
  if ((type === 'long' || type === 'int') && typeof value === 'string' && INTEGER_TEXT.test(value)) return value;
  if (type === 'decimal' && (typeof value === 'number' || typeof value === 'bigint'))
    return JSON.stringify(String(value));
  return JSON.stringify(value);
}

/** One row's JSON text. */
export function rowJson(row: readonly unknown[], types: readonly KqlType[]): string {
  return `[${types.map((type, i) => cellJson(row[i], type)).join(',')}]`;
}

/** The rows of a table as the JSON text of an array. */
export function rowsJson(rows: readonly (readonly unknown[])[], types: readonly KqlType[]): string {
  return `[${rows.map((row) => rowJson(row, types)).join(',')}]`;
}

/**
 * The JSON text of a table object whose `Rows` (its last key) is given as JSON text: the rest is
 * serialised by JSON.stringify, the rows by rowsJson.
 */
export function tableJson(table: Readonly<Record<string, unknown>>, rowsText: string): string {
  const head = JSON.stringify({ ...table, Rows: [] });
  return `${head.slice(0, -'[]}'.length)}${rowsText}}`;
}
