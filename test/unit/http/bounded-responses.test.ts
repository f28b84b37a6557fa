// What the chain adds for bounded answers: a body whose JSON text was made while it was built is
// sent as that text (not serialised again), and a refusal to retry later carries Retry-After.
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { httpHandler, type HttpEvent } from '../../../lib/http/chain';
import { withJsonText } from '../../../lib/http/envelope';
import { retryLater } from '../../../lib/query-api/ports';

const context = { awsRequestId: 'req-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const event = {
  version: '2.0',
  routeKey: 'GET /x',
  rawPath: '/x',
  rawQueryString: '',
  headers: {},
  requestContext: { requestId: 'r' },
  isBase64Encoded: false,
} as unknown as HttpEvent;

async function call(handler: ReturnType<typeof httpHandler>) {
  return (await handler(event, context)) as { statusCode: number; body: string; headers: Record<string, string> };
}

describe('bounded responses', () => {
  it('sends the JSON text attached to a body instead of serialising the body', async () => {
    // The text differs from JSON.stringify(body) here only to show which one is sent.
    const body = withJsonText({ rows: [[1]] }, '{"rows":[[1]],"sentAsMade":true}');
    const res = await call(httpHandler(async () => ({ body })));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"rows":[[1]],"sentAsMade":true}');
    expect(JSON.stringify(body)).toBe('{"rows":[[1]]}');
  });

  it('adds Retry-After to a 429 or 503 that says when to retry, and keeps it in the envelope', async () => {
    const throttled = await call(
      httpHandler(async () => Promise.reject(retryLater('TOO_MANY_REQUESTS', 'slow down', 2))),
    );
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBe('2');
    expect(JSON.parse(throttled.body)).toEqual({
      status: 'ERROR',
      code: 'TOO_MANY_REQUESTS',
      message: 'slow down',
      data: [{ retryAfterSeconds: 2 }],
    });
    const unavailable = await call(
      httpHandler(async () => Promise.reject(retryLater('SERVICE_UNAVAILABLE', 'busy', 5))),
    );
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.headers['retry-after']).toBe('5');
  });
});
