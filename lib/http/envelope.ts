// The spec's bodies: `{status:"ERROR", code, message, data}` for errors and
// `{status:"SUCCESS", code:"SUCCESS", message:null, data}` for writes.
import type { AppError } from '../core/errors';
import { type ErrorData } from '../core/errors';

export interface ErrorBody {
  readonly status: 'ERROR';
  readonly code: string;
  readonly message: string;
  readonly data: ErrorData;
}

export interface SuccessBody<T> {
  readonly status: 'SUCCESS';
  readonly code: 'SUCCESS';
  readonly message: null;
  readonly data: readonly T[];
}

export function errorBody(error: AppError): ErrorBody {
  return { status: 'ERROR', code: error.code, message: error.message, data: error.data };
}

export function successBody<T>(data: readonly T[]): SuccessBody<T> {
  return { status: 'SUCCESS', code: 'SUCCESS', message: null, data };
}

/** What an unexpected failure looks like to a client: no internals, just a reference for support. */
export function internalErrorBody(requestId: string | undefined): ErrorBody {
  return {
    status: 'ERROR',
    code: 'INTERNAL_ERROR',
    message: 'The server failed to process the request. Try again later; quote the request id when contacting support.',
    data: requestId ? [{ requestId }] : [],
  };
}

const JSON_TEXT = Symbol('the body as JSON text');

/**
 * Attaches a body's JSON text, made while the body was built (a large query answer is measured
 * as it grows), so the response sends that text instead of serialising the body again. The text
 * must be exactly JSON.stringify(body); in-process callers keep using the body itself.
 */
export function withJsonText<T extends object>(body: T, text: string): T {
  Object.defineProperty(body, JSON_TEXT, { value: text, enumerable: false });
  return body;
}

/** The JSON text attached by withJsonText, if any. */
export function jsonTextOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const text = (body as { [JSON_TEXT]?: unknown })[JSON_TEXT];
  return typeof text === 'string' ? text : undefined;
}
