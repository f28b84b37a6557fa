import { describe, expect, it } from 'vitest';
import { checkHealth } from '../../../lib/health/health';

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
});
