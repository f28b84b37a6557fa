import { describe, expect, it } from 'vitest';
import { checkHealth, healthResponse } from '../../../lib/health/health';

describe('checkHealth', () => {
  it('is up only when every component answers', async () => {
    const up = await checkHealth({ a: async () => undefined, b: async () => undefined });
    expect(up.status).toBe('up');
    const down = await checkHealth({ a: async () => undefined, b: async () => Promise.reject(new Error('refused')) });
    expect(down.status).toBe('down');
    expect(down.components.b).toMatchObject({ status: 'down', detail: 'refused' });
    expect(down.components.a?.status).toBe('up');
  });

  it('reports a component that hangs as down after the time limit', async () => {
    const report = await checkHealth({ slow: () => new Promise(() => undefined) }, 50);
    expect(report.components.slow).toMatchObject({ status: 'down', detail: 'no answer within 50 ms' });
  });

  it('answers 200 when up and 503 when a component is down, never cached', async () => {
    const up = healthResponse(await checkHealth({ a: async () => undefined }));
    const down = healthResponse(await checkHealth({ a: async () => Promise.reject(new Error('x')) }));
    expect([up.status, down.status]).toEqual([200, 503]);
    expect(down.headers['cache-control']).toBe('no-store');
  });
});
