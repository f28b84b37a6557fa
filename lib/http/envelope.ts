// The spec's bodies: `{status:"ERROR", code, message, data}` for errors and
// `{status:"SUCCESS", code:"SUCCESS", message:null, data}` for writes.
import type { AppError} from '../core/errors';
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
