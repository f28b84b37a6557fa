// The one middy chain of every HTTP handler: request logging keys, JSON body parsing, response
// serialisation and the error envelope. Handlers return data; they never build status codes.
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { callerOf } from '../auth/caller';
import { AppError, isAppError } from '../core/errors';
import { logger } from '../core/logger';
import { errorBody, internalErrorBody, jsonTextOf } from './envelope';

/** What a handler returns: a body and, when not 200, a status; headers are optional. */
export interface HttpResult {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The event as handlers see it: API Gateway HTTP API payload 2.0 plus the parsed JSON body. */
export type HttpEvent = APIGatewayProxyEventV2 & {
  readonly requestContext: APIGatewayProxyEventV2['requestContext'] & { readonly authorizer?: { readonly lambda?: Record<string, unknown> } };
  jsonBody?: unknown;
};

export type HttpHandlerFn = (event: HttpEvent, context: Context) => Promise<HttpResult>;

export interface HttpHandlerOptions {
  /** Parse the body as JSON (415 without a JSON content type, 400 INVALID_INPUT when malformed). */
  readonly jsonBody?: boolean;
  /** Largest accepted body in bytes (413 above). */
  readonly maxBodyBytes?: number;
  /**
   * The route sits behind a Lambda authorizer: a refused caller gets its 401/403 before the body
   * is read, so an unauthenticated client never learns anything from body validation.
   */
  readonly authorized?: boolean;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

const requestLogging: MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2> = {
  before: (request) => {
    logger.resetKeys();
    logger.appendKeys({ requestId: request.event.requestContext?.requestId ?? request.context.awsRequestId, route: request.event.routeKey });
  },
  after: (request) => {
    logger.info('request done', { status: request.response?.statusCode });
  },
};

function jsonBodyParser(maxBodyBytes: number): MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2> {
  return {
    before: (request) => {
      const event = request.event;
      const raw = event.body === undefined || event.body === null ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      if (Buffer.byteLength(raw) > maxBodyBytes) throw new AppError('PAYLOAD_TOO_LARGE', `the request body is larger than ${maxBodyBytes} bytes`);
      const contentType = header(event, 'content-type') ?? '';
      if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim())) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', "send the body as JSON with 'Content-Type: application/json'", { field: 'Content-Type', received: contentType || null });
      }
      if (raw.trim() === '') throw new AppError('INVALID_INPUT', 'the request body is empty; send a JSON object', { field: 'body' });
      try {
        event.jsonBody = JSON.parse(raw);
      } catch (error) {
        throw new AppError('INVALID_INPUT', `the request body is not valid JSON: ${(error as Error).message}`, { field: 'body' });
      }
    },
  };
}

const authorizedCaller: MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2> = {
  before: (request) => {
    const plantId = request.event.pathParameters?.plantId;
    callerOf(request.event, plantId === undefined ? {} : { plantId });
  },
};

const responseSerializer: MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2> = {
  after: (request) => {
    const result = request.response as unknown as HttpResult;
    request.response = {
      statusCode: result.status ?? 200,
      headers: { ...JSON_HEADERS, ...result.headers },
      body: jsonTextOf(result.body) ?? JSON.stringify(result.body),
    };
  },
};

/**
 * `Retry-After` of a refusal to retry later (429, 503): an AppError whose `data` holds
 * `{retryAfterSeconds}` (lib/query-api/ports.ts retryLater) gets the header too.
 */
function retryAfterHeader(error: AppError): Record<string, string> {
  const seconds = error.data.map((d) => d.retryAfterSeconds).find((s): s is number => typeof s === 'number' && Number.isFinite(s) && s >= 0);
  return seconds === undefined ? {} : { 'retry-after': String(Math.ceil(seconds)) };
}

/** Runs first on error (attached last): every failure becomes the envelope with a status code. */
const errorEnvelope: MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2> = {
  onError: (request) => {
    const error = request.error;
    const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
    if (isAppError(error)) {
      if (error.status >= 500) logger.error('request failed', { code: error.code, error });
      else logger.info('request refused', { code: error.code, status: error.status, reason: error.message });
      request.response = { statusCode: error.status, headers: { ...JSON_HEADERS, ...retryAfterHeader(error) }, body: JSON.stringify(errorBody(error)) };
      return;
    }
    logger.error('unexpected error', { error: error as Error });
    request.response = { statusCode: 500, headers: { ...JSON_HEADERS }, body: JSON.stringify(internalErrorBody(requestId)) };
  },
};

/** Wraps a handler function in the project's middleware chain. */
export function httpHandler(fn: HttpHandlerFn, options: HttpHandlerOptions = {}) {
  const chain = middy<HttpEvent, APIGatewayProxyStructuredResultV2>({ timeoutEarlyInMillis: 0 }).use(requestLogging).use(responseSerializer);
  if (options.authorized) chain.use(authorizedCaller);
  if (options.jsonBody) chain.use(jsonBodyParser(options.maxBodyBytes ?? 1024 * 1024));
  return chain.use(errorEnvelope).handler(fn as never);
}
