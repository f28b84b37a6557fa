// The import mechanics shared by every kind: parse the file, validate every row (errors by line),
// write nothing when a row is invalid unless skipInvalid, then write in batches with progress.
import type { ImportKind } from './kind';
import { parseRecords, type SourceRecord } from './records';

export interface RowError {
  readonly line: number;
  readonly field: string;
  readonly message: string;
}

export interface ImportReport {
  readonly kind: string;
  readonly rows: number;
  readonly written: number;
  readonly skipped: number;
  readonly errors: readonly RowError[];
  /** False when invalid rows stopped the import before any write. */
  readonly wrote: boolean;
}

export interface ImportOptions {
  readonly format: 'json' | 'csv';
  readonly skipInvalid: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

export function validateRows<Row>(
  kind: Pick<ImportKind<Row, unknown>, 'row'>,
  records: readonly SourceRecord[],
): { valid: Array<{ line: number; row: Row }>; errors: RowError[] } {
  const valid: Array<{ line: number; row: Row }> = [];
  const errors: RowError[] = [];
  for (const record of records) {
    const parsed = kind.row.safeParse(record.value);
    if (parsed.success) valid.push({ line: record.line, row: parsed.data });
    else
      for (const issue of parsed.error.issues)
        errors.push({ line: record.line, field: issue.path.join('.') || '(row)', message: issue.message });
  }
  return { valid, errors };
}

export async function runImport<Row, Target>(
  kind: ImportKind<Row, Target>,
  target: Target,
  text: string,
  options: ImportOptions,
): Promise<ImportReport> {
  const records = parseRecords(text, options.format);
  const { valid, errors } = validateRows(kind, records);
  const invalidLines = new Set(errors.map((e) => e.line)).size;
  if (errors.length > 0 && !options.skipInvalid)
    return { kind: kind.name, rows: records.length, written: 0, skipped: records.length, errors, wrote: false };
  let written = 0;
  options.onProgress?.(0, valid.length);
  for (let i = 0; i < valid.length; i += kind.batchSize) {
    const batch = valid.slice(i, i + kind.batchSize).map((v) => v.row);
    await kind.write(target, batch);
    written += batch.length;
    options.onProgress?.(written, valid.length);
  }
  return { kind: kind.name, rows: records.length, written, skipped: invalidLines, errors, wrote: true };
}
