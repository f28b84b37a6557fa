// The one middleware chain: every outcome of a handler becomes a status code and, for errors,
// the spec's envelope; nothing a client sends can produce a 500.
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/core/errors';
import { httpHandler, type HttpEvent } from '../../../lib/http/chain';

const context = { awsRequestId: 'req-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

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

async function call(handler: ReturnType<typeof httpHandler>, e: HttpEvent) {
  const res = (await handler(e, context)) as { statusCode: number; body: string; headers: Record<string, string> };
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown>, headers: res.headers };
}

describe('httpHandler', () => {
  it('serialises the handler result with status 200 by default', async () => {
    const handler = httpHandler(async () => ({ body: { hello: 'world' } }));
    const res = await call(handler, event());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hello: 'world' });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('renders an AppError as the envelope with its status', async () => {
    const handler = httpHandler(async () => {
      throw new AppError('PRECONDITION_FAILED', 'the part has no stock record yet', { field: 'id' });
    });
    const res = await call(handler, event());
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ status: 'ERROR', code: 'PRECONDITION_FAILED', message: 'the part has no stock record yet', data: [{ field: 'id' }] });
  });

  it('hides an unexpected error behind a generic 500 with the request id', async () => {
    const handler = httpHandler(async () => {
      throw new Error('secret internal detail');
    });
    const res = await call(handler, event());
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
    expect(res.body.data).toEqual([{ requestId: 'api-req-1' }]);
  });

  it('parses a JSON body for handlers that ask for it', async () => {
    const handler = httpHandler(async (e) => ({ body: { got: e.jsonBody } }), { jsonBody: true });
    const res = await call(handler, event({ body: '{"a":1}' }));
    expect(res.body).toEqual({ got: { a: 1 } });
    const encoded = await call(handler, event({ body: Buffer.from('{"b":2}').toString('base64'), isBase64Encoded: true }));
    expect(encoded.body).toEqual({ got: { b: 2 } });
  });

  it('refuses malformed JSON with 400 INVALID_INPUT naming the body', async () => {
    const handler = httpHandler(async () => ({ body: {} }), { jsonBody: true });
    const res = await call(handler, event({ body: '{"a":' }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.data).toEqual([{ field: 'body' }]);
    const empty = await call(handler, event({ body: '' }));
    expect(empty.status).toBe(400);
  });

  it('refuses a body that is not declared as JSON with 415, whatever the header case', async () => {
    const handler = httpHandler(async () => ({ body: {} }), { jsonBody: true });
    const res = await call(handler, event({ headers: { 'Content-Type': 'text/plain' }, body: '{}' }));
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const ok = await call(handler, event({ headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '{}' }));
    expect(ok.status).toBe(200);
  });

  it('answers a refused caller with 401 before it reads the body of an authorized route', async () => {
    const handler = httpHandler(async () => ({ body: {} }), { jsonBody: true, authorized: true });
    const refused = { requestId: 'r', authorizer: { lambda: { authError: 'UNAUTHORIZED', authMessage: 'send a token' } } } as unknown as HttpEvent['requestContext'];
    const res = await call(handler, event({ body: '{not json', requestContext: refused }));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', message: 'send a token' });
    const otherPlant = { requestId: 'r', authorizer: { lambda: { kind: 'plant-token', customerId: 'c', plantIds: 'p1', allPlants: 'false' } } } as unknown as HttpEvent['requestContext'];
    const forbidden = await call(handler, event({ body: '{not json', requestContext: otherPlant, pathParameters: { plantId: 'p2' } }));
    expect(forbidden.status).toBe(403);
  });

  it('refuses a body over the limit with 413', async () => {
    const handler = httpHandler(async () => ({ body: {} }), { jsonBody: true, maxBodyBytes: 10 });
    const res = await call(handler, event({ body: '{"long":"0123456789"}' }));
    expect(res.status).toBe(413);
  });
});
