// Turning raw request parts into validated values; every failure is a 400 INVALID_INPUT whose
// `data` names each offending field (query parameter, body path or header).
import type { z } from 'zod';
import { AppError } from '../core/errors';
import type { DateRange } from './dates';
import { EARLIEST_DATE, LATEST_DATE } from './dates';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, type PageRequest } from './paging';

function fieldOf(issue: z.core.$ZodIssue, prefix: string): string {
  if (issue.code === 'unrecognized_keys') return [...issue.path, ...issue.keys].join('.');
  const path = issue.path.map(String).join('.');
  return path === '' ? prefix : path;
}

/** @throws AppError INVALID_INPUT with `data: [{field, message}, ...]`. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, what: 'query' | 'body'): z.output<S> {
  const parsed = schema.safeParse(raw ?? (what === 'query' ? {} : raw));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const field = fieldOf(issue, what);
    const message = issue.code === 'unrecognized_keys' ? `unknown ${what === 'query' ? 'query parameter' : 'field'}` : issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return { field, message };
  });
  const first = problems[0] as { field: string; message: string };
  throw new AppError('INVALID_INPUT', `${first.field}: ${first.message}`, problems);
}

export function pageRequest(query: { page?: number | undefined; pageSize?: number | undefined }): PageRequest {
  return { page: query.page ?? DEFAULT_PAGE, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE };
}

/** @throws AppError INVALID_INPUT (field endDate) when the range is reversed. */
export function dateRange(query: { startDate?: string | undefined; endDate?: string | undefined }): DateRange {
  const range = { start: query.startDate ?? EARLIEST_DATE, end: query.endDate ?? LATEST_DATE };
  if (range.start > range.end) throw new AppError('INVALID_INPUT', 'endDate: must not be before startDate', { field: 'endDate', message: 'must not be before startDate' });
  return range;
}
