// Page arithmetic of every list endpoint: one-based `page`, `pageSize` records a page,
// `totalPages = ceil(total / pageSize)`. Zero records give `totalPages: 0` and `data: []`; a page
// past the end gives `data: []` with the true totalPages (docs/maintenance-api.md).

export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
/** Guards the offset arithmetic: page * pageSize stays far below Number.MAX_SAFE_INTEGER. */
export const MAX_PAGE = 10_000_000;

export interface PageRequest {
  readonly page: number;
  readonly pageSize: number;
}

/** The slice of the ordered records a page covers. */
export interface PageWindow {
  readonly offset: number;
  readonly limit: number;
}

export interface Paged<T> {
  readonly data: readonly T[];
  readonly page: number;
  readonly totalPages: number;
  readonly pageSize: number;
}

export function pageWindow(request: PageRequest): PageWindow {
  return { offset: (request.page - 1) * request.pageSize, limit: request.pageSize };
}

export function totalPages(total: number, pageSize: number): number {
  return Math.ceil(total / pageSize);
}

export function pagedList<T>(request: PageRequest, total: number, data: readonly T[]): Paged<T> {
  return { data, page: request.page, totalPages: totalPages(total, request.pageSize), pageSize: request.pageSize };
}
