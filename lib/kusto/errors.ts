// Errors as Kusto writes them (Kusto docs, "Query V2 HTTP response", failure body; the OneApiErrors
// rules of the Microsoft REST API guidelines, 7.10.2): `{error: {code, message, @type, @message,
// @context, @permanent}}`. `@message` carries our own message with its `line:col`; our code and
// data ride along as `@errorCode` and `@details` so nothing the native envelope says is lost.
import type { AppError } from '../core/errors';

export interface OneApiError {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly '@type': string;
    readonly '@message': string;
    readonly '@context': Readonly<Record<string, unknown>>;
    readonly '@permanent': boolean;
    readonly '@errorCode': string;
    readonly '@details': readonly unknown[];
  };
}

export interface ErrorContext {
  readonly clientRequestId: string;
  readonly activityId: string;
  readonly now: Date;
}

interface KustoKind {
  readonly code: string;
  readonly message: string;
  readonly type: string;
}

const BAD_REQUEST: KustoKind = {
  code: 'General_BadRequest',
  message: 'Request is invalid and cannot be executed.',
  type: 'Kusto.Data.Exceptions.KustoBadRequestException',
};

/** The Kusto exception a client's error handling expects for each of our codes. */
function kind(error: AppError): KustoKind {
  switch (error.code) {
    case 'QUERY_SYNTAX':
      return { ...BAD_REQUEST, type: 'Kusto.Data.Exceptions.SyntaxException' };
    case 'QUERY_SEMANTIC':
      return { ...BAD_REQUEST, type: 'Kusto.Data.Exceptions.SemanticException' };
    case 'UNAUTHORIZED':
      return {
        code: 'Unauthorized',
        message: 'The caller is not authenticated.',
        type: 'Kusto.Data.Exceptions.KustoClientAuthenticationException',
      };
    case 'FORBIDDEN':
      return {
        code: 'Forbidden',
        message: 'The caller is not authorized to perform this operation.',
        type: 'Kusto.DataNode.Exceptions.UnauthorizedDatabaseAccessException',
      };
    case 'TOO_MANY_REQUESTS':
      return {
        code: 'TooManyRequests',
        message: 'The request was throttled.',
        type: 'Kusto.DataNode.Exceptions.ControlCommandThrottledException',
      };
    case 'QUERY_TIMEOUT':
      return {
        code: 'Request_ExecutionTimeout',
        message: 'The request timed out.',
        type: 'Kusto.Data.Exceptions.KustoRequestExecutionTimeoutException',
      };
    case 'SERVICE_UNAVAILABLE':
      return {
        code: 'ServiceUnavailable',
        message: 'The service is temporarily unavailable.',
        type: 'Kusto.Data.Exceptions.KustoServiceTimeoutException',
      };
    case 'INTERNAL_ERROR':
      return {
        code: 'Internal_ServerError',
        message: 'The server failed to process the request.',
        type: 'Kusto.Data.Exceptions.KustoServiceException',
      };
    default:
      return error.status === 404
        ? {
            code: 'NotFound',
            message: 'The requested resource was not found.',
            type: 'Kusto.Data.Exceptions.EntityNotFoundException',
          }
        : BAD_REQUEST;
  }
}

/** Permanent: retrying the same request cannot succeed (every 4xx but throttling). */
export function oneApiError(error: AppError, context: ErrorContext): OneApiError {
  const k = kind(error);
  return {
    error: {
      code: k.code,
      message: k.message,
      '@type': k.type,
      '@message': error.message,
      '@context': {
        timestamp: context.now.toISOString(),
        clientRequestId: context.clientRequestId,
        activityId: context.activityId,
      },
      '@permanent': error.status < 500 && error.status !== 429,
      '@errorCode': error.code,
      '@details': error.data,
    },
  };
}
