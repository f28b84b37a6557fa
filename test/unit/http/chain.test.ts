// The one middleware chain: every outcome of a handler becomes a status code and, for errors,
// the spec's envelope; nothing a client sends can produce a 500.
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/core/errors';
import { logger } from '../../../lib/core/logger';
import { httpHandler, TIMEOUT_EARLY_MS, type HttpEvent } from '../../../lib/http/chain';

const context = {
  awsRequestId: 'req-1',
  functionName: 'fn-under-test',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;
/** No early-timeout timer in tests (STYLE.md); the timeout tests set their own. */
const testing = { timeoutEarlyInMillis: 0 } as const;

function event(overrides: Partial<HttpEvent> = {}): HttpEvent {
  return {
    version: '2.0',
    routeKey: 'POST /things',
    rawPath: '/things',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: { requestId: 'api-req-1' } as HttpEvent['requestContext'],
    isBase64Encoded: false,
    ...overrides,
  } as HttpEvent;
}

async function call(handler: ReturnType<typeof httpHandler>, e: HttpEvent, ctx: Context = context) {
  const res = (await handler(e, ctx)) as { statusCode: number; body: string; headers: Record<string, string> };
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown>, headers: res.headers };
}

describe('httpHandler', () => {
  it('serialises the handler result with status 200 by default', async () => {
    const handler = httpHandler(async () => ({ body: { hello: 'world' } }), testing);
    const res = await call(handler, event());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hello: 'world' });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('renders an AppError as the envelope with its status', async () => {
    const handler = httpHandler(async () => {
      throw new AppError('PRECONDITION_FAILED', 'the part has no stock record yet', { field: 'id' });
    }, testing);
    const res = await call(handler, event());
    expect(res.status).toBe(412);
    expect(res.body).toEqual({
      status: 'ERROR',
      code: 'PRECONDITION_FAILED',
      message: 'the part has no stock record yet',
      data: [{ field: 'id' }],
    });
  });

  it('hides an unexpected error behind a generic 500 with the request id', async () => {
    const handler = httpHandler(async () => {
      throw new Error('secret internal detail');
    }, testing);
    const res = await call(handler, event());
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
    expect(res.body.data).toEqual([{ requestId: 'api-req-1' }]);
  });

  it('parses a JSON body for handlers that ask for it', async () => {
    const handler = httpHandler(async (e) => ({ body: { got: e.jsonBody } }), { ...testing, jsonBody: true });
    const res = await call(handler, event({ body: '{"a":1}' }));
    expect(res.body).toEqual({ got: { a: 1 } });
    const encoded = await call(
      handler,
      event({ body: Buffer.from('{"b":2}').toString('base64'), isBase64Encoded: true }),
    );
    expect(encoded.body).toEqual({ got: { b: 2 } });
  });

  it('refuses malformed JSON with 400 INVALID_INPUT naming the body', async () => {
    const handler = httpHandler(async () => ({ body: {} }), { ...testing, jsonBody: true });
    const res = await call(handler, event({ body: '{"a":' }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.data).toEqual([{ field: 'body' }]);
    const empty = await call(handler, event({ body: '' }));
    expect(empty.status).toBe(400);
  });

  it('refuses a body that is not declared as JSON with 415, whatever the header case', async () => {
    const handler = httpHandler(async () => ({ body: {} }), { ...testing, jsonBody: true });
    const res = await call(handler, event({ headers: { 'Content-Type': 'text/plain' }, body: '{}' }));
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const ok = await call(
      handler,
      event({ headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '{}' }),
    );
    expect(ok.status).toBe(200);
  });

  it('answers a refused caller with 401 before it reads the body of an authorized route', async () => {
    const handler = httpHandler(async () => ({ body: {} }), { ...testing, jsonBody: true, authorized: true });
    const refused = {
      requestId: 'r',
      authorizer: { lambda: { authError: 'UNAUTHORIZED', authMessage: 'send a token' } },
    } as unknown as HttpEvent['requestContext'];
    const res = await call(handler, event({ body: '{not json', requestContext: refused }));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', message: 'send a token' });
    const otherPlant = {
      requestId: 'r',
      authorizer: { lambda: { kind: 'plant-token', customerId: 'c', plantIds: 'p1', allPlants: 'false' } },
    } as unknown as HttpEvent['requestContext'];
    const forbidden = await call(
      handler,
      event({ body: '{not json', requestContext: otherPlant, pathParameters: { plantId: 'p2' } }),
    );
    expect(forbidden.status).toBe(403);
  });

  it('checks the token itself on a route without an authorizer: refusals before the body is read, the caller to the handler', async () => {
    // Prepare: an authenticate that refuses without a header and accepts one token.
    const asked: string[] = [];
    const authenticate = async (e: HttpEvent) => {
      asked.push(e.headers.authorization ?? '');
      if (e.headers.authorization !== 'Bearer good') throw new AppError('UNAUTHORIZED', 'send a token');
      return { kind: 'jwt', customerId: 'c', plantIds: ['p1'], allPlants: false, clientId: 'cl' } as const;
    };
    const seen: unknown[] = [];
    const handler = httpHandler(
      async (e) => {
        seen.push(e.caller);
        return { body: {} };
      },
      { ...testing, jsonBody: true, authenticate },
    );
    // Act
    const refused = await call(handler, event({ body: '{not json' }));
    const otherPlant = await call(
      handler,
      event({ body: '{not json', headers: { Authorization: 'Bearer good' }, pathParameters: { plantId: 'p2' } }),
    );
    // An authorizer's context, as a misrouted request might carry, is never what decides.
    const forged = {
      requestId: 'r',
      authorizer: { lambda: { kind: 'jwt', customerId: 'c', plantIds: 'p1', allPlants: 'false' } },
    } as unknown as HttpEvent['requestContext'];
    const forgedRes = await call(handler, event({ body: '{}', requestContext: forged }));
    const ok = await call(
      handler,
      event({ body: '{}', headers: { 'content-type': 'application/json', Authorization: 'Bearer good' } }),
    );
    // Assess
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ status: 'ERROR', code: 'UNAUTHORIZED', message: 'send a token' });
    expect(otherPlant.status).toBe(403);
    expect(forgedRes.status).toBe(401);
    expect(ok.status).toBe(200);
    expect(asked).toEqual(['', 'Bearer good', '', 'Bearer good']);
    expect(seen).toEqual([{ kind: 'jwt', customerId: 'c', plantIds: ['p1'], allPlants: false, clientId: 'cl' }]);
  });

  it('refuses to wrap a handler with both an authorizer and its own token check', () => {
    const authenticate = async () => ({ kind: 'jwt', customerId: 'c', plantIds: [], allPlants: true }) as const;
    expect(() => httpHandler(async () => ({ body: {} }), { ...testing, authorized: true, authenticate })).toThrow(
      TypeError,
    );
  });

  it('refuses a body over the limit with 413', async () => {
    const handler = httpHandler(async () => ({ body: {} }), { ...testing, jsonBody: true, maxBodyBytes: 10 });
    const res = await call(handler, event({ body: '{"long":"0123456789"}' }));
    expect(res.status).toBe(413);
  });

  it('resolves the caller once, with the plant of the path URL-decoded, and hands it to the handler', async () => {
    const seen: unknown[] = [];
    const handler = httpHandler(
      async (e) => {
        seen.push(e.caller);
        return { body: {} };
      },
      { ...testing, authorized: true },
    );
    const lambda = { kind: 'plant-token', customerId: 'c', plantIds: 'plant 1', allPlants: 'false', tokenId: 't1' };
    const res = await call(
      handler,
      event({
        requestContext: { requestId: 'r', authorizer: { lambda } } as unknown as HttpEvent['requestContext'],
        pathParameters: { plantId: 'plant%201' },
      }),
    );
    expect(res.status).toBe(200);
    expect(seen).toEqual([
      { kind: 'plant-token', customerId: 'c', plantIds: ['plant 1'], allPlants: false, tokenId: 't1' },
    ]);
  });

  it('hands handlers lower-case header names and the body as text, decoded from base64 once', async () => {
    const handler = httpHandler(
      async (e) => ({
        body: { ifMatch: e.headers['if-match'] ?? null, body: e.body ?? null, base64: e.isBase64Encoded },
      }),
      testing,
    );
    const form = 'grant_type=client_credentials&scope=a';
    const res = await call(
      handler,
      event({
        headers: { 'If-Match': '"3"', 'CONTENT-TYPE': 'application/x-www-form-urlencoded' },
        body: Buffer.from(form).toString('base64'),
        isBase64Encoded: true,
      }),
    );
    expect(res.body).toEqual({ ifMatch: '"3"', body: form, base64: false });
  });

  it('answers a handler that hangs with 503 and the envelope before Lambda would time out', async () => {
    const hanging = async () => new Promise<never>(() => undefined);
    const nearlyOut = { ...context, getRemainingTimeInMillis: () => TIMEOUT_EARLY_MS + 50 } as Context;
    const started = Date.now();
    // Production's default margin (no timeoutEarlyInMillis given): the early timeout is on.
    const res = await call(httpHandler(hanging), event(), nearlyOut);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(TIMEOUT_EARLY_MS).toBeGreaterThan(0);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'ERROR', code: 'SERVICE_UNAVAILABLE', data: [{ retryAfterSeconds: 1 }] });
    expect(res.headers['retry-after']).toBe('1');
  });

  it('logs with the Lambda context keys of Powertools and the API request id, reset after each request', async () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    // Each invocation starts at the configured level (SILENT in unit tests): the handlers raise it.
    const verbose = async () => {
      logger.setLogLevel('INFO');
      return { body: {} };
    };
    try {
      const handler = httpHandler(async () => {
        logger.appendKeys({ leaked: 'yes' });
        return verbose();
      }, testing);
      await call(handler, event());
      await call(
        httpHandler(verbose, testing),
        event({ requestContext: { requestId: 'api-req-2' } as HttpEvent['requestContext'] }),
      );
    } finally {
      logger.setLogLevel('SILENT');
      process.stdout.write = write;
    }
    const logs = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.message === 'request done');
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({
      function_name: 'fn-under-test',
      function_request_id: 'req-1',
      correlation_id: 'api-req-1',
      route: 'POST /things',
      status: 200,
      leaked: 'yes',
    });
    expect(logs[1]).toMatchObject({ function_request_id: 'req-1', correlation_id: 'api-req-2' });
    expect(logs[1]).not.toHaveProperty('leaked');
  });
});
