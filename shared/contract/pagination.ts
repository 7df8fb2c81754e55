import * as z from 'zod/mini';
import { named } from './schema-registry';

/** The `X-Pagination` header of list responses (docs/http.md), a JSON object. */
export const paginationHeader = /* @__PURE__ */ named(
  'Pagination',
  () =>
    z.object({
      total: z.int().check(z.gte(0)),
      total_pages: z.int().check(z.gte(0)),
      first_page: z.int().check(z.gte(1)),
      last_page: z.int().check(z.gte(1)),
      page: z.int().check(z.gte(1)),
      previous_page: z.nullable(z.int().check(z.gte(1))),
      next_page: z.nullable(z.int().check(z.gte(1))),
    }),
  'Position of this page among all pages: `previous_page`/`next_page` are null at either end; an empty list has `total_pages` 0 and `last_page` 1',
);
export type PaginationHeader = z.infer<typeof paginationHeader>;
