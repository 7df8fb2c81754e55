import * as z from 'zod';
import { named } from './schema-registry';

/** The `X-Pagination` header of list responses (DESIGN §4), a JSON object. */
export const paginationHeader = named(
  'Pagination',
  z.object({
    total: z.int().min(0),
    total_pages: z.int().min(0),
    first_page: z.int().min(1),
    last_page: z.int().min(1),
    page: z.int().min(1),
    previous_page: z.int().min(1).nullable(),
    next_page: z.int().min(1).nullable(),
  }),
  'Position of this page among all pages: `previous_page`/`next_page` are null at either end; an empty list has `total_pages` 0 and `last_page` 1',
);
export type PaginationHeader = z.infer<typeof paginationHeader>;
