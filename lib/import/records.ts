// Reading import files: a JSON array of objects (or `{ "rows": [...] }`) or CSV with a header row.
// Every record keeps the line it starts on, so validation errors point at the file's lines.
import { CsvError, parse } from 'csv-parse/sync';

export interface SourceRecord {
  readonly line: number;
  readonly value: Record<string, unknown>;
}

export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
}

/** Line (1-based) of each top-level element of a JSON array text. */
function topLevelElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    if (depth === 1 && expectValue && c !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
  }
  return lines;
}

export function parseJsonRecords(text: string): SourceRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ImportFileError(`the file is not valid JSON: ${(error as Error).message}`);
  }
  const rows = Array.isArray(parsed) ? parsed : (parsed as { rows?: unknown })?.rows;
  if (!Array.isArray(rows))
    throw new ImportFileError('a JSON import file holds an array of objects (or {"rows": [...]})');
  const arrayText = Array.isArray(parsed) ? text : text.slice(text.indexOf('['));
  const offset = Array.isArray(parsed) ? 0 : text.slice(0, text.indexOf('[')).split('\n').length - 1;
  const lines = topLevelElementLines(arrayText);
  return rows.map((value, index) => ({
    line: (lines[index] ?? 0) + offset,
    value:
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { $value: value },
  }));
}

const lineBreaks = (field: string): number => field.match(/\r\n|\r|\n/g)?.length ?? 0;

/** Lines a record takes: its own, plus the line breaks inside its quoted fields. */
const span = (fields: readonly string[]): number => 1 + fields.reduce((n, field) => n + lineBreaks(field), 0);

/**
 * RFC 4180 CSV (csv-parse): quoted fields with "" escapes and line breaks, a quote inside an
 * unquoted field kept as it is (`Pipe 12" steel`), `,` or `;` separators (whichever the header
 * has more of), blank lines and rows of blank cells skipped. Each record keeps the line it starts on.
 * @throws ImportFileError naming the line of a malformed record, or of one with more cells than the header.
 */
export function parseCsvRecords(text: string): SourceRecord[] {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  // Blank lines stay records here (skipped below), so every line of the file belongs to one record
  // and lines are counted from the records alone; csv-parse's `info` would give them at twice the cost.
  const options = { delimiter, relax_quotes: true, relax_column_count: true } as const;
  let rows: string[][];
  try {
    rows = parse(body, options);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The refused record starts after the ones csv-parse took: read those again to count their lines.
    const taken =
      typeof error.records === 'number' && error.records > 0 ? parse(body, { ...options, to: error.records }) : [];
    const problem = error.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quoted field is not closed' : error.message;
    throw new ImportFileError(`line ${taken.reduce((line, fields) => line + span(fields), 1)}: ${problem}`);
  }
  let next = 1;
  const records = rows.flatMap((fields) => {
    const line = next;
    next += span(fields);
    return fields.some((f) => f.trim() !== '') ? [{ line, fields }] : [];
  });
  const [header, ...data] = records;
  if (!header) throw new ImportFileError('the CSV file is empty');
  const names = header.fields.map((n) => n.trim());
  return data.map((row) => {
    const extra = row.fields.slice(names.length).filter((f) => f.trim() !== '');
    if (extra.length > 0)
      throw new ImportFileError(
        `line ${row.line}: ${row.fields.length} fields, but the header names ${names.length} columns`,
      );
    return { line: row.line, value: Object.fromEntries(names.map((name, i) => [name, row.fields[i] ?? ''])) };
  });
}

export function parseRecords(text: string, format: 'json' | 'csv'): SourceRecord[] {
  return format === 'json' ? parseJsonRecords(text) : parseCsvRecords(text);
}
