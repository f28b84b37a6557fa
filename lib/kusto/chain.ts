// The middy chain of the Kusto REST routes. It is not lib/http's chain because the protocol
// differs at every edge: errors are OneApiErrors, not the service envelope; every answer carries
// x-ms-client-request-id (echoed) and x-ms-activity-id; the body is JSON text already made by the
// encoders. Authorization, body limits and logging behave as on the native routes: the query routes
// check the bearer token in the function (`authenticate`, as lib/http/chain.ts does for the native
// query routes), with the query authorizer's own decision.
import { randomUUID } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Caller } from '../auth/caller';
import { AppError, isAppError } from '../core/errors';
import { logger } from '../core/logger';
import type { HttpEvent } from '../http/chain';
import { oneApiError } from './errors';

/** Correlation of one request: Kusto's client request id (echoed) and our activity id. */
export interface KustoTrace {
  readonly clientRequestId: string;
  readonly activityId: string;
  readonly receivedAt: Date;
}

export type KustoEvent = HttpEvent & { kusto?: KustoTrace; caller?: Caller };

export interface KustoHandlerOptions {
  /**
   * The function checks the bearer token itself with this (no Lambda authorizer: one invocation
   * per request instead of two); a refused caller gets its 401/403 before the body is read.
   */
  readonly authenticate?: (event: KustoEvent) => Promise<Caller>;
  /** Parse the body as JSON (Kusto clients send application/json; charset=utf-8). */
  readonly jsonBody?: boolean;
  readonly maxBodyBytes?: number;
}

/** What a Kusto handler returns: the body's JSON text. */
export interface KustoResult {
  readonly json: string;
}

type Middleware = MiddlewareObj<KustoEvent, APIGatewayProxyStructuredResultV2>;

const JSON_TYPE = 'application/json; charset=utf-8';

function header(event: KustoEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === name) return value;
  return undefined;
}

export function traceOf(event: KustoEvent): KustoTrace {
  if (!event.kusto) throw new Error('the Kusto chain did not run before this handler');
  return event.kusto;
}

function traceHeaders(trace: KustoTrace | undefined): Record<string, string> {
  return trace ? { 'x-ms-client-request-id': trace.clientRequestId, 'x-ms-activity-id': trace.activityId } : {};
}

const tracing: Middleware = {
  before: (request) => {
    // A client request id is a correlation string (`KNC.execute;<guid>`); keep it printable and short.
    const sent = header(request.event, 'x-ms-client-request-id')
      ?.replace(/[^\x20-\x7e]/g, '')
      .slice(0, 256);
    const activityId = randomUUID();
    request.event.kusto = {
      clientRequestId: sent || `unspecified;${randomUUID()}`,
      activityId,
      receivedAt: new Date(),
    };
    logger.resetKeys();
    logger.appendKeys({
      requestId: request.event.requestContext?.requestId ?? request.context.awsRequestId,
      route: request.event.routeKey,
      activityId,
      clientRequestId: request.event.kusto.clientRequestId,
    });
  },
  after: (request) => {
    logger.info('request done', { status: request.response?.statusCode });
  },
};

/** The caller as the function's own check finds it; never an authorizer's context. @throws AppError 401/403. */
function verifiedCaller(authenticate: (event: KustoEvent) => Promise<Caller>): Middleware {
  return {
    before: async (request) => {
      request.event.caller = await authenticate(request.event);
    },
  };
}

function jsonBody(maxBodyBytes: number): Middleware {
  return {
    before: (request) => {
      const event = request.event;
      const raw =
        event.body == null
          ? ''
          : event.isBase64Encoded
            ? Buffer.from(event.body, 'base64').toString('utf8')
            : event.body;
      if (Buffer.byteLength(raw) > maxBodyBytes)
        throw new AppError('PAYLOAD_TOO_LARGE', `the request body is larger than ${maxBodyBytes} bytes`);
      const contentType = header(event, 'content-type') ?? '';
      if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim())) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', "send the body as JSON with 'Content-Type: application/json'", {
          field: 'Content-Type',
        });
      }
      try {
        event.jsonBody = JSON.parse(raw);
      } catch (error) {
        throw new AppError('INVALID_INPUT', `the request body is not valid JSON: ${(error as Error).message}`, {
          field: 'body',
        });
      }
    },
  };
}

const serializer: Middleware = {
  after: (request) => {
    const result = request.response as unknown as KustoResult;
    request.response = {
      statusCode: 200,
      headers: { 'content-type': JSON_TYPE, ...traceHeaders(request.event.kusto) },
      body: result.json,
    };
  },
};

/** Every failure becomes a OneApiErrors body with a status code; nothing internal is exposed. */
const errors: Middleware = {
  onError: (request) => {
    const trace = request.event.kusto ?? {
      clientRequestId: `unspecified;${randomUUID()}`,
      activityId: randomUUID(),
      receivedAt: new Date(),
    };
    let error: AppError;
    if (isAppError(request.error)) {
      error = request.error;
      if (error.status >= 500) logger.error('request failed', { code: error.code, error });
      else logger.info('request refused', { code: error.code, status: error.status, reason: error.message });
    } else {
      logger.error('unexpected error', { error: request.error as Error });
      error = new AppError(
        'INTERNAL_ERROR',
        `The server failed to process the request. Quote activity id ${trace.activityId} when contacting support.`,
      );
    }
    const retry = error.data
      .map((d) => d.retryAfterSeconds)
      .find((s): s is number => typeof s === 'number' && Number.isFinite(s) && s >= 0);
    request.response = {
      statusCode: error.status,
      headers: {
        'content-type': JSON_TYPE,
        ...traceHeaders(trace),
        ...(retry === undefined ? {} : { 'retry-after': String(Math.ceil(retry)) }),
      },
      body: JSON.stringify(oneApiError(error, { ...trace, now: new Date() })),
    };
  },
};

export type KustoHandlerFn = (event: KustoEvent, context: Context) => Promise<KustoResult>;

/** Wraps a Kusto route's handler: tracing, authentication, body, then the handler; errors first on failure. */
export function kustoHandler(fn: KustoHandlerFn, options: KustoHandlerOptions = {}) {
  const chain = middy<KustoEvent, APIGatewayProxyStructuredResultV2>({ timeoutEarlyInMillis: 0 })
    .use(tracing)
    .use(serializer);
  if (options.authenticate) chain.use(verifiedCaller(options.authenticate));
  if (options.jsonBody) chain.use(jsonBody(options.maxBodyBytes ?? 1024 * 1024));
  return chain.use(errors).handler(fn as never);
}

/** The caller the function's own check established (`authenticate`). */
export function kustoCaller(event: KustoEvent): Caller {
  if (!event.caller) throw new Error('this Kusto route was wrapped without `authenticate`');
  return event.caller;
}
