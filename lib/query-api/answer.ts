// The body of a table answer, built row by row while the engine reads: each row is serialised
// once, its size counted as a Lambda response counts it, and the answer is cut at the row limit
// or at the byte cap. The body's text is made from those pieces, never serialised again.
import { AppError } from '../core/errors';
import { withJsonText } from '../http/envelope';
import type { ResponseColumn } from './columns';
import type { RowSink } from './ports';

export type TruncationReason = 'rowLimit' | 'responseBytes';

export interface TableMeta {
  readonly truncated: boolean;
  /** Only when truncated: the row limit or the byte cap cut the rows. */
  readonly truncationReason?: TruncationReason;
  readonly rowLimit: number;
  readonly maxResponseBytes: number;
  /** The `render` hint of the query. */
  readonly render?: unknown;
}

export interface TableResponse {
  readonly data: { readonly columns: readonly ResponseColumn[]; readonly rows: readonly unknown[][] };
  readonly meta: TableMeta;
}

/**
 * Bytes of JSON text inside a Lambda response: its UTF-8 length, plus one for each `"` and `\`,
 * which the response payload escapes again (the body is a JSON string in it).
 */
export function lambdaBytes(json: string): number {
  let escaped = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 34 || c === 92) escaped++;
  }
  return Buffer.byteLength(json, 'utf8') + escaped;
}

export interface AnswerLimits {
  readonly rowLimit: number;
  readonly maxResponseBytes: number;
  readonly render?: unknown;
}

interface FirstRowTooLarge {
  readonly minBytes: number;
  readonly column: number;
  readonly columnBytes?: number;
}

export class TableAnswer implements RowSink {
  private readonly rows: unknown[][] = [];
  private readonly texts: string[] = [];
  private readonly prefix: string;
  private used: number;
  private reason: TruncationReason | undefined;
  private tooLarge: FirstRowTooLarge | undefined;

  constructor(
    private readonly columns: readonly ResponseColumn[],
    private readonly limits: AnswerLimits,
  ) {
    this.prefix = `{"data":{"columns":${JSON.stringify(columns)},"rows":[`;
    // Room for the largest closing part, whatever the answer turns out to be.
    const widestMeta: TableMeta = {
      truncated: true,
      truncationReason: 'responseBytes',
      rowLimit: limits.rowLimit,
      maxResponseBytes: limits.maxResponseBytes,
      ...this.render(),
    };
    this.used = lambdaBytes(this.prefix) + lambdaBytes(`]},"meta":${JSON.stringify(widestMeta)}}`);
  }

  get remainingBytes(): number {
    return this.limits.maxResponseBytes - this.used;
  }

  push(row: unknown[]): boolean {
    if (this.rows.length >= this.limits.rowLimit) return this.cut('rowLimit');
    const text = JSON.stringify(row);
    const bytes = lambdaBytes(text) + (this.rows.length > 0 ? 1 : 0);
    if (bytes > this.remainingBytes) {
      if (this.rows.length === 0) this.tooLarge = { minBytes: bytes, ...largestCell(row) };
      return this.cut('responseBytes');
    }
    this.rows.push(row);
    this.texts.push(text);
    this.used += bytes;
    return true;
  }

  oversized(minBytes: number, column: number): false {
    if (this.rows.length === 0) this.tooLarge = { minBytes, column };
    return this.cut('responseBytes');
  }

  /**
   * The response, its JSON text attached for the HTTP chain.
   * @throws AppError QUERY_RESULT_TOO_LARGE when not even the first row fits.
   */
  finish(): TableResponse {
    if (this.tooLarge) throw this.refusal(this.tooLarge);
    const meta: TableMeta = {
      truncated: this.reason !== undefined,
      ...(this.reason ? { truncationReason: this.reason } : {}),
      rowLimit: this.limits.rowLimit,
      maxResponseBytes: this.limits.maxResponseBytes,
      ...this.render(),
    };
    const text = `${this.prefix}${this.texts.join(',')}]},"meta":${JSON.stringify(meta)}}`;
    return withJsonText({ data: { columns: this.columns, rows: this.rows }, meta }, text);
  }

  private render(): { render?: unknown } {
    return this.limits.render === undefined ? {} : { render: this.limits.render };
  }

  private cut(reason: TruncationReason): false {
    this.reason ??= reason;
    return false;
  }

  private refusal(first: FirstRowTooLarge): AppError {
    const name = this.columns[first.column]?.name ?? `#${first.column + 1}`;
    const cell = first.columnBytes === undefined ? '' : ` (that cell alone: ${first.columnBytes} bytes)`;
    return new AppError(
      'QUERY_RESULT_TOO_LARGE',
      `the first row of the answer needs at least ${first.minBytes} bytes, more than an answer may hold (${this.limits.maxResponseBytes}); its largest cell is column '${name}'${cell}: summarize it, take part of it or leave it out`,
      { column: name, minBytes: first.minBytes, maxResponseBytes: this.limits.maxResponseBytes },
    );
  }
}

/** The biggest cell of a row that did not fit (only on that error path: each cell serialised once more). */
function largestCell(row: readonly unknown[]): { column: number; columnBytes: number } {
  let column = 0;
  let columnBytes = -1;
  row.forEach((cell, i) => {
    const bytes = lambdaBytes(JSON.stringify(cell) ?? 'null');
    if (bytes > columnBytes) [column, columnBytes] = [i, bytes];
  });
  return { column, columnBytes };
}
