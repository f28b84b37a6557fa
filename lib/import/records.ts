// Reading import files: a JSON array of objects (or `{ "rows": [...] }`) or CSV with a header row.
// Every record keeps the line it starts on, so validation errors point at the file's lines.

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
  if (!Array.isArray(rows)) throw new ImportFileError('a JSON import file holds an array of objects (or {"rows": [...]})');
  const arrayText = Array.isArray(parsed) ? text : text.slice(text.indexOf('['));
  const offset = Array.isArray(parsed) ? 0 : text.slice(0, text.indexOf('[')).split('\n').length - 1;
  const lines = topLevelElementLines(arrayText);
  return rows.map((value, index) => ({ line: (lines[index] ?? 0) + offset, value: value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { $value: value } }));
}

/** RFC 4180 CSV: quoted fields with "" escapes and line breaks; `,` or `;` separators (from the header). */
export function parseCsvRecords(text: string): SourceRecord[] {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const separator = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const records: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let fieldStarted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (c === separator) {
      fields.push(field);
      field = '';
      fieldStarted = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      fields.push(field);
      if (fields.some((f) => f !== '')) records.push({ line: recordLine, fields });
      fields = [];
      field = '';
      fieldStarted = false;
      line++;
      recordLine = line;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (quoted) throw new ImportFileError(`line ${recordLine}: a quoted field is not closed`);
  fields.push(field);
  if (fields.some((f) => f !== '')) records.push({ line: recordLine, fields });
  const [header, ...rows] = records;
  if (!header) throw new ImportFileError('the CSV file is empty');
  const names = header.fields.map((n) => n.trim());
  return rows.map((row) => ({
    line: row.line,
    value: Object.fromEntries(names.map((name, i) => [name, row.fields[i] ?? ''])),
  }));
}

export function parseRecords(text: string, format: 'json' | 'csv'): SourceRecord[] {
  return format === 'json' ? parseJsonRecords(text) : parseCsvRecords(text);
}
