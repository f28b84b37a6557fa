// The project's own steps of the HTTP chain (chain.ts composes them with middy's and Powertools'):
// log keys of the API request, the body as text, the JSON body, the caller, the response and the
// error envelope. Each step is one middy middleware object.
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { callerOf, checkPlantAccess, type Caller } from '../auth/caller';
import { AppError, isAppError } from '../core/errors';
import { logger } from '../core/logger';
import { errorBody, internalErrorBody, jsonTextOf } from './envelope';
import { pathParam } from './request';
import type { HttpEvent, HttpResult } from './types';

type Middleware = MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

/** The API Gateway request id: what a client quotes (internalErrorBody), else the Lambda one. */
function requestIdOf(request: { event: HttpEvent; context: { awsRequestId?: string } }): string | undefined {
  return request.event.requestContext?.requestId ?? request.context.awsRequestId;
}

/**
 * The API request's keys on every log line of the invocation. The Lambda context's keys come
 * from Powertools' injectLambdaContext, which also resets these at the end of the invocation.
 */
export const requestLogKeys: Middleware = {
  before: (request) => {
    const requestId = requestIdOf(request);
    if (requestId !== undefined) logger.setCorrelationId(requestId);
    logger.appendKeys({ route: request.event.routeKey });
  },
  after: (request) => {
    logger.info('request done', { status: request.response?.statusCode });
  },
};

/**
 * The body as text, decoded once here when API Gateway sent it base64-encoded (a content type it
 * does not treat as text): handlers and the JSON parser only ever see `event.body` as text.
 */
export const textBody: Middleware = {
  before: (request) => {
    const event = request.event;
    if (event.isBase64Encoded && typeof event.body === 'string') {
      event.body = Buffer.from(event.body, 'base64').toString('utf8');
      event.isBase64Encoded = false;
    }
  },
};

/** `event.jsonBody`. @throws AppError 413 over maxBodyBytes, 415 not JSON, 400 empty or malformed. */
export function jsonBody(maxBodyBytes: number): Middleware {
  return {
    before: (request) => {
      const event = request.event;
      const raw = event.body ?? '';
      if (Buffer.byteLength(raw) > maxBodyBytes)
        throw new AppError('PAYLOAD_TOO_LARGE', `the request body is larger than ${maxBodyBytes} bytes`);
      const contentType = event.headers?.['content-type'] ?? '';
      if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim())) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', "send the body as JSON with 'Content-Type: application/json'", {
          field: 'Content-Type',
          received: contentType || null,
        });
      }
      if (raw.trim() === '')
        throw new AppError('INVALID_INPUT', 'the request body is empty; send a JSON object', { field: 'body' });
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

/**
 * Resolves the caller once per request into `event.caller`, with the plant of the path checked;
 * it runs before the body is read, so an unauthenticated client learns nothing from validation.
 */
export const authorizedCaller: Middleware = {
  before: (request) => {
    const event = request.event;
    const caller: Caller = callerOf(event);
    if (event.pathParameters?.plantId !== undefined) checkPlantAccess(caller, pathParam(event, 'plantId'));
    event.caller = caller;
  },
};

/**
 * The caller of a route without a Lambda authorizer, whose function checks the bearer token
 * itself (`authenticate`, lib/wiring/auth.ts); then the path's plant, as authorizedCaller does.
 * Before the body is read, like authorizedCaller. @throws AppError 401/403 from `authenticate`.
 */
export function verifiedCaller(authenticate: (event: HttpEvent) => Promise<Caller>): Middleware {
  return {
    before: async (request) => {
      const event = request.event;
      const caller = await authenticate(event);
      if (event.pathParameters?.plantId !== undefined) checkPlantAccess(caller, pathParam(event, 'plantId'));
      event.caller = caller;
    },
  };
}

/** The handler's HttpResult as API Gateway's structured result. */
export const responseSerializer: Middleware = {
  after: (request) => {
    const result = request.response as unknown as HttpResult;
    if (result.bodyEncoding !== undefined) {
      request.response = {
        statusCode: result.status ?? 200,
        headers: { ...result.headers },
        body: String(result.body),
        isBase64Encoded: result.bodyEncoding === 'base64',
      };
      return;
    }
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
  const seconds = error.data
    .map((d) => d.retryAfterSeconds)
    .find((s): s is number => typeof s === 'number' && Number.isFinite(s) && s >= 0);
  return seconds === undefined ? {} : { 'retry-after': String(Math.ceil(seconds)) };
}

/** Runs first on error (attached last): every failure becomes the envelope with a status code. */
export const errorEnvelope: Middleware = {
  onError: (request) => {
    const error = request.error;
    if (isAppError(error)) {
      if (error.status >= 500) logger.error('request failed', { code: error.code, error });
      else logger.info('request refused', { code: error.code, status: error.status, reason: error.message });
      request.response = {
        statusCode: error.status,
        headers: { ...JSON_HEADERS, ...retryAfterHeader(error) },
        body: JSON.stringify(errorBody(error)),
      };
      return;
    }
    logger.error('unexpected error', { error: error as Error });
    request.response = {
      statusCode: 500,
      headers: { ...JSON_HEADERS },
      body: JSON.stringify(internalErrorBody(requestIdOf(request))),
    };
  },
};
