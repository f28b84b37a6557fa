// The Kusto routes' chain: correlation headers on every answer, OneApiErrors for every failure
// (never the native envelope, never internals), authorization refused before the body is read.
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { callerContext } from '../../../lib/auth/caller';
import { AppError } from '../../../lib/core/errors';
import { kustoCaller, kustoHandler, traceOf, type KustoEvent } from '../../../lib/kusto/chain';

const context = { awsRequestId: 'req-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const allowed = callerContext({ kind: 'jwt', customerId: 'acme', plantIds: ['p1'], allPlants: false, clientId: 'c1' });

function event(overrides: Partial<KustoEvent> = {}, lambda: Record<string, string> = allowed): KustoEvent {
  return {
    version: '2.0',
    routeKey: 'POST /v2/rest/query',
    rawPath: '/v2/rest/query',
    rawQueryString: '',
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-ms-client-request-id': 'KNC.execute;abc' },
    body: JSON.stringify({ db: 'acme', csl: 'print 1' }),
    requestContext: { requestId: 'api-req-1', authorizer: { lambda } } as unknown as KustoEvent['requestContext'],
    isBase64Encoded: false,
    ...overrides,
  } as KustoEvent;
}

async function call(handler: ReturnType<typeof kustoHandler>, e: KustoEvent) {
  const res = (await handler(e, context)) as { statusCode: number; body: string; headers: Record<string, string> };
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, never>, headers: res.headers };
}

/** A token check that accepts every request as a caller of customer acme. */
const acme = async () =>
  ({ kind: 'jwt', customerId: 'acme', plantIds: ['p1'], allPlants: false, clientId: 'c1' }) as const;

const ACTIVITY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('kustoHandler', () => {
  it('sends the JSON text with the client request id echoed and a fresh activity id', async () => {
    // Prepare
    const handler = kustoHandler(
      async (e) => ({
        json: JSON.stringify({
          crid: traceOf(e).clientRequestId,
          customer: kustoCaller(e).customerId,
          body: e.jsonBody,
        }),
      }),
      { authenticate: acme, jsonBody: true },
    );
    // Act
    const first = await call(handler, event());
    const second = await call(handler, event());
    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ crid: 'KNC.execute;abc', customer: 'acme', body: { db: 'acme', csl: 'print 1' } });
    expect(first.headers['x-ms-client-request-id']).toBe('KNC.execute;abc');
    expect(first.headers['x-ms-activity-id']).toMatch(ACTIVITY);
    expect(second.headers['x-ms-activity-id']).not.toBe(first.headers['x-ms-activity-id']);
  });

  it('makes up a client request id when none is sent', async () => {
    const res = await call(
      kustoHandler(async () => ({ json: '{}' })),
      event({ headers: {} }),
    );
    expect(res.headers['x-ms-client-request-id']).toMatch(/^unspecified;/);
  });

  it('answers an AppError as OneApiErrors with its status, our message and code', async () => {
    // Prepare
    const handler = kustoHandler(async () => {
      throw new AppError('QUERY_SYNTAX', "1:8: expected an expression after '|'", [{ line: 1, column: 8 }]);
    });
    // Act
    const res = await call(handler, event());
    // Assess
    expect(res.status).toBe(400);
    expect(res.headers['x-ms-client-request-id']).toBe('KNC.execute;abc');
    expect(res.body).toEqual({
      error: {
        code: 'General_BadRequest',
        message: 'Request is invalid and cannot be executed.',
        '@type': 'Kusto.Data.Exceptions.SyntaxException',
        '@message': "1:8: expected an expression after '|'",
        '@context': {
          timestamp: expect.any(String),
          clientRequestId: 'KNC.execute;abc',
          activityId: res.headers['x-ms-activity-id'],
        },
        '@permanent': true,
        '@errorCode': 'QUERY_SYNTAX',
        '@details': [{ line: 1, column: 8 }],
      },
    });
  });

  it('sends Retry-After and a non-permanent error for throttling, and hides unexpected errors behind a 500', async () => {
    const throttled = await call(
      kustoHandler(async () => {
        throw new AppError('TOO_MANY_REQUESTS', 'slow down', { retryAfterSeconds: 2 });
      }),
      event(),
    );
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('2');
    expect(throttled.body.error).toMatchObject({ code: 'TooManyRequests', '@permanent': false });
    const crash = await call(
      kustoHandler(async () => {
        throw new Error('secret internals');
      }),
      event(),
    );
    expect(crash.status).toBe(500);
    expect(JSON.stringify(crash.body)).not.toContain('secret internals');
    expect(crash.body.error).toMatchObject({ code: 'Internal_ServerError', '@permanent': false });
  });

  it('checks the token itself on a route without an authorizer: refusals before the body is read, the caller to the handler', async () => {
    // Prepare: an authenticate that refuses without a header and accepts one token.
    const asked: string[] = [];
    const authenticate = async (e: KustoEvent) => {
      asked.push(e.headers.authorization ?? '');
      if (e.headers.authorization !== 'Bearer good') throw new AppError('UNAUTHORIZED', 'send a token');
      return { kind: 'jwt', customerId: 'acme', plantIds: ['p1'], allPlants: false, clientId: 'c1' } as const;
    };
    const handler = kustoHandler(async (e) => ({ json: JSON.stringify({ customer: kustoCaller(e).customerId }) }), {
      authenticate,
      jsonBody: true,
    });
    // Act
    const refused = await call(handler, event({ body: '{not json' }));
    // An authorizer's context (the default event carries an allowing one) is never what decides.
    const forged = await call(handler, event());
    const ok = await call(
      handler,
      event({ headers: { 'content-type': 'application/json', authorization: 'Bearer good' } }),
    );
    // Assess
    expect(refused.status).toBe(401);
    expect(refused.headers['x-ms-client-request-id']).toBe('KNC.execute;abc');
    expect(refused.body.error).toMatchObject({ code: 'Unauthorized', '@message': 'send a token' });
    expect(forged.status).toBe(401);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ customer: 'acme' });
    expect(asked).toEqual(['', '', 'Bearer good']);
  });

  it('refuses malformed JSON and another content type with 4xx OneApiErrors', async () => {
    const handler = kustoHandler(async () => ({ json: '{}' }), { authenticate: acme, jsonBody: true });
    expect((await call(handler, event({ body: '{not json' }))).body.error).toMatchObject({
      '@errorCode': 'INVALID_INPUT',
    });
    expect((await call(handler, event({ headers: { 'content-type': 'text/plain' } }))).status).toBe(415);
  });
});
