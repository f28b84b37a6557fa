// The tests' reference for how Kusto (a .NET service) writes a real: .NET's double.ToString() for
// tostring(), and the same digits with a `.0` kept on a whole number inside a dynamic value's JSON
// (the series_stats_dynamic page prints {"min": 2.0, ..., "sum": 492.0}), as Json.NET writes a
// double. The engine writes them in SQL (lib/query/sql/duckdb.ts, realToString and kustoJsonText);
// this is an independent TypeScript statement of the same rules to compare it with.

/**
 * .NET's double.ToString() (Core 3.0 on): the shortest round-trip digits, fixed unless the decimal
 * point is more than max(15, digits) places right of the first digit or more than 3 left of it, then
 * d.dddE+XX with at least two exponent digits (1E+20, 1E-07, 1.5E+300); -0 for negative zero
 * (.NET Core 3.0 changed that from "0"); NaN, Infinity, -Infinity.
 */
export function dotnetRealText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const sign = value < 0 ? '-' : '';
  // toExponential() without a digit count writes the shortest digits that read back to the value.
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const point = Number(exponent) + 1;
  if (point > Math.max(digits.length, 15) || point < -3) {
    const power = Math.abs(point - 1);
    const rest = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${rest}E${point < 1 ? '-' : '+'}${power < 10 ? '0' : ''}${power}`;
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A finite real inside a dynamic value's JSON text: dotnetRealText, a whole number keeping `.0`
 * (2.0, -0.0, 1E+20 as it is). NaN and the infinities are no JSON numbers (the caller writes them as strings).
 */
export function dotnetJsonRealText(value: number): string {
  const text = dotnetRealText(value);
  return /[.E]/.test(text) ? text : `${text}.0`;
}
