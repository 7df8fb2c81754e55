/** The response header that carries the pagination of a list (the body stays a bare JSON array). */
export const paginationHeaderName = 'x-pagination';

export interface PageRequest {
  /** 1-based page number. */
  readonly page: number;
  readonly pageSize: number;
}

/** The `X-Pagination` header's JSON, with the field names the API uses. */
export interface PaginationInfo {
  readonly total: number;
  readonly total_pages: number;
  readonly first_page: number;
  readonly last_page: number;
  readonly page: number;
  readonly previous_page: number | null;
  readonly next_page: number | null;
}

/**
 * Pagination figures for `total` items. An empty list has 0 pages, yet first and last page are 1:
 * page 1 is always a valid request (it answers an empty array). A page past the end answers an
 * empty array; its previous page is the last page, so a client can step back to data.
 */
export function paginationInfo(total: number, { page, pageSize }: PageRequest): PaginationInfo {
  if (!Number.isInteger(total) || total < 0) {
    throw new RangeError(`total must be a non-negative integer, got ${total}`);
  }
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`page and pageSize must be positive integers, got ${page} and ${pageSize}`);
  }
  const totalPages = Math.ceil(total / pageSize);
  const lastPage = Math.max(1, totalPages);
  return {
    total,
    total_pages: totalPages,
    first_page: 1,
    last_page: lastPage,
    page,
    previous_page: page > 1 ? Math.min(page - 1, lastPage) : null,
    next_page: page < totalPages ? page + 1 : null,
  };
}

/** One page of `items` and the `X-Pagination` header value describing it. */
export function paginate<T>(items: readonly T[], request: PageRequest): { items: T[]; header: string } {
  const info = paginationInfo(items.length, request);
  const start = (request.page - 1) * request.pageSize;
  return { items: items.slice(start, start + request.pageSize), header: JSON.stringify(info) };
}
