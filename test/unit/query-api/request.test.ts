// The request body's fast read (plainRequest) against the schema it stands in for: where it reads
// a body it gives what the schema gives; every other body is left to the schema.
import { describe, expect, it } from 'vitest';
import { plainRequest, queryRequestSchema } from '../../../lib/query-api/request';

const window = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-02T00:00:00.000Z' };

describe('plainRequest', () => {
  it('reads the common bodies as the schema outputs them', () => {
    const plants = ['p1', 'p2'];
    const bodies: Record<string, unknown>[] = [
      { query: 'print 1', ...window },
      { ...window, query: 'States | take 1', plantIds: plants },
      { query: 'x', ...window, plantIds: [] },
      { query: 'x', ...window, plantIds: ['p'.repeat(100)] },
      JSON.parse(
        `{"query":"print 1","startTime":"${window.startTime}","endTime":"${window.endTime}","plantIds":["p1"]}`,
      ),
    ];
    for (const body of bodies) {
      const read = plainRequest(body);
      expect(read).toBeDefined();
      expect(read).toStrictEqual(queryRequestSchema.parse(body));
      expect(Object.keys(read as object)).toEqual(Object.keys(queryRequestSchema.parse(body)));
    }
    // The plant list is a copy, as the schema's.
    expect(plainRequest({ query: 'x', ...window, plantIds: plants })?.plantIds).not.toBe(plants);
  });

  it('leaves every other body to the schema, refusals included', () => {
    const sparse = ['p1'];
    sparse.length = 2;
    const bodies: unknown[] = [
      null,
      'print 1',
      [],
      Object.assign(Object.create(null) as object, { query: 'x', ...window }),
      { query: '', ...window },
      { query: 1, ...window },
      { query: 'x', startTime: window.startTime },
      { query: 'x', ...window, startTime: '2026-01-01T00:00:00Z' },
      { query: 'x', ...window, endTime: 1767225600000 },
      { query: 'x', ...window, plantIds: undefined },
      { query: 'x', ...window, plantIds: 'p1' },
      { query: 'x', ...window, plantIds: [''] },
      { query: 'x', ...window, plantIds: ['p'.repeat(101)] },
      { query: 'x', ...window, plantIds: Array.from({ length: 1001 }, () => 'p') },
      { query: 'x', ...window, plantIds: sparse },
      { query: 'x', ...window, parameters: { a: '1' } },
      { query: 'x', ...window, extra: true },
    ];
    for (const body of bodies) expect(plainRequest(body)).toBeUndefined();
  });
});
