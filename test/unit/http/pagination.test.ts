import { describe, expect, it } from 'vitest';
import { paginate } from '../../../shared/http/pagination';

const items = ['a', 'b', 'c', 'd', 'e'];

function paged(page: number, pageSize: number, list: readonly string[] = items) {
  const result = paginate(list, { page, pageSize });
  return { items: result.items, header: JSON.parse(result.header) as Record<string, unknown> };
}

describe('pagination', () => {
  it('answers the first page with no previous page', () => {
    // Act
    const result = paged(1, 2);

    // Assess
    expect(result.items).toEqual(['a', 'b']);
    expect(result.header).toEqual({
      total: 5,
      total_pages: 3,
      first_page: 1,
      last_page: 3,
      page: 1,
      previous_page: null,
      next_page: 2,
    });
  });

  it('answers a middle page with both neighbours', () => {
    // Act
    const result = paged(2, 2);

    // Assess
    expect(result.items).toEqual(['c', 'd']);
    expect(result.header).toMatchObject({ page: 2, previous_page: 1, next_page: 3 });
  });

  it('answers a partial last page with no next page', () => {
    // Act
    const result = paged(3, 2);

    // Assess
    expect(result.items).toEqual(['e']);
    expect(result.header).toMatchObject({ page: 3, last_page: 3, previous_page: 2, next_page: null });
  });

  it('answers a page past the end with no items, correct totals and the last page as previous', () => {
    // Act
    const result = paged(7, 2);

    // Assess
    expect(result.items).toEqual([]);
    expect(result.header).toEqual({
      total: 5,
      total_pages: 3,
      first_page: 1,
      last_page: 3,
      page: 7,
      previous_page: 3,
      next_page: null,
    });
  });

  it('answers an empty list with zero pages, page 1 as first and last page', () => {
    // Act
    const result = paged(1, 20, []);

    // Assess
    expect(result.items).toEqual([]);
    expect(result.header).toEqual({
      total: 0,
      total_pages: 0,
      first_page: 1,
      last_page: 1,
      page: 1,
      previous_page: null,
      next_page: null,
    });
  });

  it('answers one page when the items fill it exactly', () => {
    // Act
    const result = paged(1, 5);

    // Assess
    expect(result.items).toEqual(items);
    expect(result.header).toMatchObject({ total_pages: 1, last_page: 1, next_page: null });
  });

  it('refuses a page or page size below 1', () => {
    // Assess
    expect(() => paginate(items, { page: 0, pageSize: 2 })).toThrow(RangeError);
    expect(() => paginate(items, { page: 1, pageSize: 0 })).toThrow(RangeError);
    expect(() => paginate(items, { page: 1.5, pageSize: 2 })).toThrow(RangeError);
  });
});
