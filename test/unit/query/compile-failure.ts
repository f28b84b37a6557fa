// Test helpers of the compiler's unit tests: the QueryError a query must be refused with (any other
// outcome fails the test), and the compile options most of them use.
import { expect } from 'vitest';
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';

export function compileFailure(query: string, options: CompileOptions): QueryError {
  try {
    compile(query, options);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected the query to fail: ${query}`);
}

/** Asserts the query is refused with `code`, a message containing `message`, at `position` ("line:column"). */
export function expectRefusedAt(
  query: string,
  options: CompileOptions,
  refusal: { code: string; message: string; position: string },
): void {
  const error = compileFailure(query, options);
  expect(error.code).toBe(refusal.code);
  expect(error.message).toContain(refusal.message);
  expect(error.message.startsWith(`${refusal.position}: `)).toBe(true);
}

/** Asserts the query is refused with QUERY_UNSUPPORTED at `position`, as `refusal` (the message up to its colon), giving `reason`. */
export function expectRefusedWithReason(
  query: string,
  options: CompileOptions,
  refusal: { position: string; refusal: string; reason: string },
): void {
  const error = compileFailure(query, options);
  expect(error.code).toBe('QUERY_UNSUPPORTED');
  expect(error.message.startsWith(`${refusal.position}: ${refusal.refusal}: `)).toBe(true);
  expect(error.message).toContain(refusal.reason);
}

/**
 * `print r = f(...)` refused at f (1:11) as an unsupported function, with `reason` in the message
 * (the functions refused with the reason no page or no data allows them).
 */
export function expectFunctionRefused(query: string, options: CompileOptions, reason: string): void {
  const name = /r = (\w+)\(/.exec(query)![1]!;
  expectRefusedWithReason(query, options, {
    position: '1:11',
    refusal: `the function '${name}' is not supported`,
    reason,
  });
}

/** A customer of every plant and a one-day window; each test adds its dialect. */
export const baseOptions: Omit<CompileOptions, 'dialect'> = {
  scope: {
    customerId: 'cust-a',
    plantIds: null,
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 100,
};
