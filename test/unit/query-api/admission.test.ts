// Admission of queries into the engine: a limit on queries running at once, a per-client share
// refused with 429, a short FIFO queue (503 when full or when the deadline passes), and a place
// given back exactly once.
import { describe, expect, it } from 'vitest';
import { admissionLimits } from '../../../lib/wiring/query';
import type { AppError } from '../../../lib/core/errors';
import { QueryAdmission } from '../../../lib/query-api/admission';

const far = () => Date.now() + 60_000;
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as AppError,
  );

describe('QueryAdmission', () => {
  it('refuses a client over its share with 429 and Retry-After, while others still get in', async () => {
    const admission = new QueryAdmission({ concurrency: 4, perClient: 2, queueLength: 4, retryAfterSeconds: 2 });
    await admission.enter('a', far());
    await admission.enter('a', far());
    const error = await refusal(admission.enter('a', far()));
    expect(error).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429 });
    expect(error?.data).toContainEqual({ retryAfterSeconds: 2 });
    await admission.enter('b', far());
    expect(admission.load).toEqual({ running: 3, waiting: 0 });
  });

  it('queues past the limit and admits in order as places are given back', async () => {
    const admission = new QueryAdmission({ concurrency: 1, perClient: 1, queueLength: 2, retryAfterSeconds: 1 });
    const release = await admission.enter('a', far());
    const order: string[] = [];
    const b = admission.enter('b', far()).then((r) => (order.push('b'), r));
    const c = admission.enter('c', far()).then((r) => (order.push('c'), r));
    expect(admission.load).toEqual({ running: 1, waiting: 2 });
    release();
    release(); // a second call gives nothing back twice
    (await b)();
    (await c)();
    expect(order).toEqual(['b', 'c']);
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
  });

  it("counts a waiting query against its client's share", async () => {
    const admission = new QueryAdmission({ concurrency: 1, perClient: 1, queueLength: 5, retryAfterSeconds: 1 });
    await admission.enter('a', far());
    const waiting = refusal(admission.enter('b', Date.now() + 50));
    expect(await refusal(admission.enter('b', far()))).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(await waiting).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('answers 503 with Retry-After when the queue is full, or when no place frees before the deadline', async () => {
    const admission = new QueryAdmission({ concurrency: 1, perClient: 1, queueLength: 1, retryAfterSeconds: 3 });
    await admission.enter('a', far());
    const waiting = refusal(admission.enter('b', Date.now() + 20));
    const full = await refusal(admission.enter('c', far()));
    expect(full).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(full?.data).toContainEqual({ retryAfterSeconds: 3 });
    expect(await waiting).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(admission.load).toEqual({ running: 1, waiting: 0 });
    // The client that gave up holds nothing any more.
    await expect(admission.enter('b', Date.now() + 10)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('admission limits of a configuration', () => {
  it('defaults to half the thread pool, a quarter of that per client', () => {
    expect(admissionLimits({ UV_THREADPOOL_SIZE: 16 })).toMatchObject({ concurrency: 8, perClient: 2, queueLength: 8 });
    expect(admissionLimits({ UV_THREADPOOL_SIZE: 4 })).toMatchObject({ concurrency: 2, perClient: 1 });
    expect(
      admissionLimits({ UV_THREADPOOL_SIZE: 16, QUERY_CONCURRENCY: 6, QUERY_CONCURRENCY_PER_CLIENT: 3 }),
    ).toMatchObject({ concurrency: 6, perClient: 3 });
  });

  // A concurrency that would take the whole pool is refused when the configuration is parsed
  // (test/unit/core/config-refinements.test.ts).
});
