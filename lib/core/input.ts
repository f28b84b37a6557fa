// The one mapping from a zod refusal to the API's 400 INVALID_INPUT: every place that validates
// outside input (a request body, query parameters, a header, an operator's argument) goes through
// parseInput, so each refusal names its fields the same way.
import type { z } from 'zod';
import { AppError } from './errors';

/** One refused field: a body path (`asset.tagNumber`), a query parameter, or the input's own name. */
export type InputProblem = Readonly<{ field: string; message: string }>;

function fieldOf(issue: z.core.$ZodIssue, name: string): string {
  if (issue.code === 'unrecognized_keys') return [...issue.path.map(String), ...issue.keys].join('.');
  const path = issue.path.map(String).join('.');
  return path === '' ? name : path;
}

function messageOf(issue: z.core.$ZodIssue, name: string): string {
  if (issue.code === 'unrecognized_keys') return name === 'query' ? 'unknown query parameter' : 'unknown field';
  // zod says "expected string, received undefined"; a client understands "is required".
  // A schema's own message (e.g. one that shows the expected format) is kept.
  if (issue.code === 'invalid_type' && issue.input === undefined && issue.message.startsWith('Invalid input'))
    return 'is required';
  return issue.message;
}

/**
 * The value as the schema outputs it.
 * @param name what the value is, used as the field of a problem without a path: `body`, `query`
 *   (whose unknown keys are "unknown query parameter"), or a single input's name (`Idempotency-Key`).
 * @throws AppError INVALID_INPUT, message `field: problem` of the first problem, `data` every problem.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, name = 'body'): z.output<S> {
  // reportInput: without it zod leaves `issue.input` out, and every wrong type would read "is required".
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const problems: InputProblem[] = parsed.error.issues.map((issue) => ({
    field: fieldOf(issue, name),
    message: messageOf(issue, name),
  }));
  const first = problems[0] ?? { field: name, message: 'invalid' };
  throw new AppError('INVALID_INPUT', `${first.field}: ${first.message}`, problems);
}
