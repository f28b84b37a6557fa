// The answer as text for the clipboard: CSV (RFC 4180) and JSON objects. No DOM here, so the unit
// tests run it in Node.
import type { QueryAnswer } from './answer-shape';

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV: a header of column names, then every row; dynamic values as JSON. */
export function toCsv(answer: QueryAnswer): string {
  const lines = [answer.data.columns.map((c) => csvField(c.name)).join(',')];
  for (const row of answer.data.rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The rows as JSON objects keyed by column name. */
export function toJson(answer: QueryAnswer): string {
  const names = answer.data.columns.map((c) => c.name);
  const objects = answer.data.rows.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i] ?? null])));
  return JSON.stringify(objects, null, 2);
}
