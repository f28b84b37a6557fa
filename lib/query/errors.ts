// One error type for the whole compiler. The message always starts with `line:col: ` so a person can
// find the spot; `span` and `toData()` give the machine-readable position for the response envelope.
import type { Span } from './tokens';

export type QueryErrorCode =
  | 'QUERY_SYNTAX'
  | 'QUERY_SEMANTIC'
  | 'QUERY_UNSUPPORTED'
  // One code per limit of lib/query/limits.ts.
  | 'QUERY_TOO_LONG'
  | 'QUERY_TOO_DEEP'
  | 'QUERY_TOO_MANY_TERMS'
  | 'QUERY_NAME_TOO_LONG'
  | 'QUERY_TOO_MANY_STATEMENTS'
  | 'QUERY_TOO_LARGE'
  | 'QUERY_TOO_COMPLEX';

/** The codes of the limits: each a 400 that states the limit and where it was crossed. */
export type QueryLimitCode = Exclude<QueryErrorCode, 'QUERY_SYNTAX' | 'QUERY_SEMANTIC' | 'QUERY_UNSUPPORTED'>;

export interface QueryErrorPosition {
  readonly line: number;
  readonly column: number;
  readonly start: number;
  readonly end: number;
}

export class QueryError extends Error {
  readonly code: QueryErrorCode;
  readonly span: Span;
  readonly line: number;
  readonly column: number;
  /** The message without the `line:col: ` prefix. */
  readonly detail: string;

  constructor(code: QueryErrorCode, detail: string, span: Span, source: string) {
    const { line, column } = lineColumn(source, span.start);
    super(`${line}:${column}: ${detail}`);
    this.name = 'QueryError';
    this.code = code;
    this.span = span;
    this.line = line;
    this.column = column;
    this.detail = detail;
  }

  /** The `data` array of the error envelope: `[{line, column, start, end}]`. */
  toData(): QueryErrorPosition[] {
    return [{ line: this.line, column: this.column, start: this.span.start, end: this.span.end }];
  }
}

/** User text inside a message, cut to a readable length. */
export function clip(text: string, max = 64): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** 1-based line and column of a character offset. */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** Builds errors bound to one query text, so callers only pass code, message and span. */
export class ErrorFactory {
  constructor(private readonly source: string) {}
  syntax(detail: string, span: Span): QueryError {
    return new QueryError('QUERY_SYNTAX', detail, span, this.source);
  }
  semantic(detail: string, span: Span): QueryError {
    return new QueryError('QUERY_SEMANTIC', detail, span, this.source);
  }
  unsupported(detail: string, span: Span): QueryError {
    return new QueryError('QUERY_UNSUPPORTED', detail, span, this.source);
  }
  limit(code: QueryLimitCode, detail: string, span: Span): QueryError {
    return new QueryError(code, detail, span, this.source);
  }
}
