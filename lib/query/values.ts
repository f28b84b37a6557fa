// Engine rows -> response values, by KQL column type. Engine-free: takes the plain JS values that
// @duckdb/node-api's getRowsJson() returns (BIGINT as decimal strings, TIMESTAMP as
// 'YYYY-MM-DD HH:MM:SS[.ffffff]', JSON as text, NaN/Infinity as strings), and also accepts Timestream's
// scalar strings ('YYYY-MM-DD HH:MM:SS.fffffffff'), numbers, bigints and Dates.
import type { KqlType } from './ir';
import { formatDatetimeTicks, formatTimespanTicks } from './literals';

const TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z?$/;

export function convertRows(rows: readonly (readonly unknown[])[], types: readonly KqlType[]): unknown[][] {
  return rows.map((row) => convertRow(row, types));
}

export function convertRow(row: readonly unknown[], types: readonly KqlType[]): unknown[] {
  return types.map((type, i) => convertValue(row[i], type));
}

/**
 * One value in the response format: datetime as ISO 8601 UTC ending in Z (up to 7 fractional digits),
 * timespan (BIGINT microseconds on the SQL side) as [-][d.]hh:mm:ss[.fffffff], dynamic as the JSON value,
 * real NaN/Infinity as strings, long as a number when it is a safe integer (else its decimal string).
 */
export function convertValue(value: unknown, type: KqlType): unknown {
  if (value === null || value === undefined) return type === 'string' ? '' : null;
  switch (type) {
    case 'string':
    case 'guid':
      return String(value);
    case 'long':
    case 'int':
      return integer(value);
    case 'real':
    case 'decimal':
      return real(value);
    case 'bool':
      return typeof value === 'boolean' ? value : value === 'true' || value === 1 || value === '1';
    case 'datetime':
      return datetime(value);
    case 'timespan': {
      const micros = typeof value === 'bigint' ? value : BigInt(String(value).split('.')[0]!);
      return formatTimespanTicks(micros * 10n);
    }
    case 'dynamic':
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
  }
}

function integer(value: unknown): number | string {
  const big = typeof value === 'bigint' ? value : BigInt(String(value));
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}

function real(value: unknown): number | string {
  const n = typeof value === 'number' ? value : Number(value);
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return n;
}

function datetime(value: unknown): string {
  if (value instanceof Date) return formatDatetimeTicks(BigInt(value.getTime()) * 10_000n);
  const m = TIMESTAMP_RE.exec(String(value));
  if (!m) return String(value);
  const ms = Date.parse(`${m[1]}T${m[2]}Z`);
  const fraction = ((m[3] ?? '') + '0000000').slice(0, 7);
  return formatDatetimeTicks(BigInt(ms) * 10_000n + BigInt(fraction));
}
