// The one middy chain of every HTTP handler: Lambda-context log keys (Powertools), header names in
// lower case (@middy/http-header-normalizer), the body as text, then the project's steps
// (middlewares.ts). Handlers return data; they never build status codes.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AppError } from '../core/errors';
import { logger } from '../core/logger';
import type { Caller } from '../auth/caller';
import {
  authorizedCaller,
  errorEnvelope,
  jsonBody,
  requestLogKeys,
  responseSerializer,
  textBody,
  verifiedCaller,
} from './middlewares';
import type { AuthorizedEvent, HttpEvent, HttpHandlerFn } from './types';

export type { AuthorizedEvent, HttpEvent, HttpHandlerFn, HttpResult } from './types';

/**
 * How long before Lambda's own timeout the chain gives up on a handler and answers 503 with the
 * envelope: time to log and send it, so a hung dependency never ends as a bare Lambda timeout
 * (502 from API Gateway, no envelope, no log line of ours).
 */
export const TIMEOUT_EARLY_MS = 1000;

/** Retry-After of the early timeout's 503: a hung dependency is usually back within seconds. */
const TIMEOUT_RETRY_SECONDS = 1;

export interface HttpHandlerOptions {
  /** Parse the body as JSON (415 without a JSON content type, 400 INVALID_INPUT when malformed). */
  readonly jsonBody?: boolean;
  /** Largest accepted body in bytes (413 above). */
  readonly maxBodyBytes?: number;
  /**
   * The route sits behind a Lambda authorizer: the chain resolves `event.caller` and checks the
   * path's plant, so a refused caller gets its 401/403 before the body is read.
   */
  readonly authorized?: boolean;
  /**
   * The route has no Lambda authorizer: the function checks the bearer token itself with this
   * (one invocation per request instead of two) and the chain sets `event.caller` from it, with
   * the path's plant checked, before the body is read. Not together with `authorized`.
   */
  readonly authenticate?: (event: HttpEvent) => Promise<Caller>;
  /** TIMEOUT_EARLY_MS unless set; tests set 0 so that no timer outlives them (STYLE.md). */
  readonly timeoutEarlyInMillis?: number;
}

function timedOut(): never {
  throw new AppError('SERVICE_UNAVAILABLE', 'the request did not finish within the time limit; retry shortly', {
    retryAfterSeconds: TIMEOUT_RETRY_SECONDS,
  });
}

/** Wraps a handler function in the project's middleware chain. */
export function httpHandler(
  fn: HttpHandlerFn<AuthorizedEvent>,
  options: HttpHandlerOptions & { readonly authorized: true },
): middy.MiddyfiedHandler<HttpEvent, APIGatewayProxyStructuredResultV2>;
export function httpHandler(
  fn: HttpHandlerFn<AuthorizedEvent>,
  options: HttpHandlerOptions & { readonly authenticate: (event: HttpEvent) => Promise<Caller> },
): middy.MiddyfiedHandler<HttpEvent, APIGatewayProxyStructuredResultV2>;
export function httpHandler(
  fn: HttpHandlerFn,
  options?: HttpHandlerOptions,
): middy.MiddyfiedHandler<HttpEvent, APIGatewayProxyStructuredResultV2>;
export function httpHandler(fn: HttpHandlerFn<AuthorizedEvent> | HttpHandlerFn, options: HttpHandlerOptions = {}) {
  // Both would decide twice, and a refusal of one could hide behind the other's caller.
  if (options.authorized && options.authenticate) throw new TypeError('authorized and authenticate exclude each other');
  const chain = middy<HttpEvent, APIGatewayProxyStructuredResultV2>({
    timeoutEarlyInMillis: options.timeoutEarlyInMillis ?? TIMEOUT_EARLY_MS,
    timeoutEarlyResponse: timedOut,
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(requestLogKeys)
    .use(httpHeaderNormalizer())
    .use(textBody)
    .use(responseSerializer);
  if (options.authorized) chain.use(authorizedCaller);
  if (options.authenticate) chain.use(verifiedCaller(options.authenticate));
  if (options.jsonBody) chain.use(jsonBody(options.maxBodyBytes ?? 1024 * 1024));
  return chain.use(errorEnvelope).handler(fn as never);
}
