// The request body's compiled parser (z.compile) against the runtime schema it stands for: the same
// output for every body it accepts, the same issues for every body it refuses.
import { describe, expect, it } from 'vitest';
import { compiledQueryRequest, queryRequestSchema } from '../../../lib/query-api/request';

const window = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-02T00:00:00.000Z' };

describe('compiled query request', () => {
  it('reads every body as the runtime schema does, refusals included', () => {
    const plants = ['p1', 'p2'];
    const bodies: unknown[] = [
      { query: 'print 1', ...window },
      { ...window, query: 'States | take 1', plantIds: plants },
      { query: 'x', ...window, plantIds: [] },
      { query: 'x', ...window, plantIds: undefined },
      { query: 'x', ...window, extra: true },
      { query: 'x', ...window, parameters: { a: '1', b: 2, c: true } },
      JSON.parse(
        `{"query":"x","startTime":"${window.startTime}","endTime":"${window.endTime}","parameters":{"__proto__":"1"}}`,
      ),
      null,
      'print 1',
      { query: '', ...window },
      { query: 1, ...window },
      { query: 'x', startTime: window.startTime },
      { query: 'x', ...window, startTime: '2026-01-01T00:00:00Z' },
      { query: 'x', ...window, endTime: 1767225600000 },
      { query: 'x', ...window, plantIds: 'p1' },
      { query: 'x', ...window, plantIds: ['', 'p'.repeat(101)] },
      { query: 'x', ...window, plantIds: Array.from({ length: 1001 }, () => 'p') },
      { query: 'x', ...window, parameters: { d: [1] } },
      { query: 'x', ...window, parameters: [] },
    ];
    let accepted = 0;
    for (const body of bodies) {
      const runtime = queryRequestSchema.safeParse(body, { reportInput: true });
      const compiled = compiledQueryRequest.safeParse(body, { reportInput: true });
      expect(compiled.success).toBe(runtime.success);
      if (runtime.success && compiled.success) {
        accepted++;
        expect(compiled.data).toStrictEqual(runtime.data);
        expect(Object.keys(compiled.data)).toEqual(Object.keys(runtime.data));
      } else {
        expect(compiled.error?.issues).toEqual(runtime.error?.issues);
      }
    }
    expect(accepted).toBe(7);
    // The plant list is a copy in both.
    expect(compiledQueryRequest.parse({ query: 'x', ...window, plantIds: plants }).plantIds).not.toBe(plants);
  });
});
