// One application error type; one table from its code to an HTTP status (STYLE.md).

export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  QUERY_SYNTAX: 400,
  QUERY_SEMANTIC: 400,
  QUERY_UNSUPPORTED: 400,
  /** The engine refused the generated statement (e.g. nested too deeply); the query needs simplifying. */
  QUERY_ENGINE_REFUSED: 400,
  /** The query failed on values at run time: overflow, conversion, out of range. */
  QUERY_DATA_ERROR: 400,
  /** The query needs more memory than the engine may use. */
  QUERY_MEMORY_LIMIT: 400,
  /** Not even the first row of the answer fits in a response. */
  QUERY_RESULT_TOO_LARGE: 400,
  QUERY_TOO_LONG: 400,
  QUERY_TOO_DEEP: 400,
  QUERY_TOO_MANY_TERMS: 400,
  QUERY_NAME_TOO_LONG: 400,
  QUERY_TOO_MANY_STATEMENTS: 400,
  QUERY_TOO_LARGE: 400,
  QUERY_TOO_COMPLEX: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  QUERY_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Extra details a client can act on, e.g. `[{ field: 'pageSize' }]`; always an array (spec: `data` is an array). */
export type ErrorData = readonly Readonly<Record<string, unknown>>[];

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly data: ErrorData;

  constructor(
    code: ErrorCode,
    message: string,
    data?: Readonly<Record<string, unknown>> | ErrorData,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data =
      data === undefined ? [] : Array.isArray(data) ? (data as ErrorData) : [data as Readonly<Record<string, unknown>>];
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
