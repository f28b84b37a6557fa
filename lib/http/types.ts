// What handlers of the HTTP chain receive and return (chain.ts).
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Caller } from '../auth/caller';

/** What a handler returns: a body and, when not 200, a status; headers are optional. */
export interface HttpResult {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The body is already the response's bytes as a string (a static file of the playground page):
   * sent as is with the result's own content type instead of as JSON; `base64` for binary or
   * compressed bytes (API Gateway decodes them).
   */
  readonly bodyEncoding?: 'text' | 'base64';
}

/**
 * The event as handlers see it: API Gateway HTTP API payload 2.0 with header names in lower case,
 * the body as text (never base64), the parsed JSON body, and the caller on authorized routes.
 */
export type HttpEvent = APIGatewayProxyEventV2 & {
  readonly requestContext: APIGatewayProxyEventV2['requestContext'] & {
    readonly authorizer?: { readonly lambda?: Record<string, unknown> };
  };
  jsonBody?: unknown;
  caller?: Caller;
};

/** The event of a route behind a Lambda authorizer: the caller is resolved, once, by the chain. */
export type AuthorizedEvent = HttpEvent & { readonly caller: Caller };

export type HttpHandlerFn<E extends HttpEvent = HttpEvent> = (event: E, context: Context) => Promise<HttpResult>;
