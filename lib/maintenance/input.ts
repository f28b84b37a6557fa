// Paging and date ranges of the maintenance lists, from query parameters already parsed by
// parseInput (lib/core/input.ts); a reversed range is a 400 INVALID_INPUT naming endDate.
import { AppError } from '../core/errors';
import type { DateRange } from './dates';
import { EARLIEST_DATE, LATEST_DATE } from './dates';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, type PageRequest } from './paging';

export function pageRequest(query: { page?: number | undefined; pageSize?: number | undefined }): PageRequest {
  return { page: query.page ?? DEFAULT_PAGE, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE };
}

/** @throws AppError INVALID_INPUT (field endDate) when the range is reversed. */
export function dateRange(query: { startDate?: string | undefined; endDate?: string | undefined }): DateRange {
  const range = { start: query.startDate ?? EARLIEST_DATE, end: query.endDate ?? LATEST_DATE };
  if (range.start > range.end)
    throw new AppError('INVALID_INPUT', 'endDate: must not be before startDate', {
      field: 'endDate',
      message: 'must not be before startDate',
    });
  return range;
}
