// The one zod -> INVALID_INPUT mapping: every refusal names its fields the same way, whatever
// the input (a body, query parameters, a header, an operator's argument).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../../lib/core/errors';
import { parseInput } from '../../../lib/core/input';

function refusal(act: () => unknown): AppError {
  try {
    act();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const body = z.strictObject({ name: z.string().max(3), asset: z.object({ tagNumber: z.string() }).optional() });

describe('parseInput', () => {
  it('returns the schema output when the value is valid', () => {
    expect(parseInput(z.coerce.number().int(), '42', 'page')).toBe(42);
  });

  it('names each refused body path, with "is required" for a missing field', () => {
    const error = refusal(() => parseInput(body, { asset: { tagNumber: 7 } }));
    expect(error).toMatchObject({ code: 'INVALID_INPUT', status: 400, message: 'name: is required' });
    expect(error.data).toEqual([
      { field: 'name', message: 'is required' },
      { field: 'asset.tagNumber', message: expect.stringMatching(/expected string/) },
    ]);
  });

  it('names unknown keys, as query parameters for the query and as fields elsewhere', () => {
    expect(refusal(() => parseInput(body, { name: 'a', extra: 1 })).data).toEqual([
      { field: 'extra', message: 'unknown field' },
    ]);
    expect(refusal(() => parseInput(z.strictObject({}), { sort: 'x' }, 'query')).data).toEqual([
      { field: 'sort', message: 'unknown query parameter' },
    ]);
  });

  it('names a value without a path by the name it is given (a header, an argument)', () => {
    const error = refusal(() => parseInput(z.string().max(3, 'at most 3 characters'), 'long', 'Idempotency-Key'));
    expect(error.message).toBe('Idempotency-Key: at most 3 characters');
    expect(error.data).toEqual([{ field: 'Idempotency-Key', message: 'at most 3 characters' }]);
    expect(refusal(() => parseInput(body, 'not an object')).data[0]).toMatchObject({ field: 'body' });
  });
});
