import * as z from 'zod/mini';
import { cloudProvider } from './enums';
import { uuid } from './formats';
import { booleanParam, dateParam, integerParam, listParam, singleValue, sortFieldParam } from './query';
import { described } from './schema-registry';

/** Query parameters of the v1 plan endpoints (#5, #6, #7, #9), named as docs/http.md decides. */

/** #5 and #6: the provider whose plans are asked for. */
export const providerQuery = /* @__PURE__ */ z.lazy(() =>
  z.strictObject({ provider: singleValue(cloudProvider) }),
);
export type ProviderQuery = z.infer<typeof providerQuery>;

export const maxPageSize = 100;
export const defaultPageSize = 20;

export const page = /* @__PURE__ */ z.lazy(() =>
  described(z._default(integerParam(z.int().check(z.gte(1))), 1), 'page number, from 1'),
);
export const pageSize = /* @__PURE__ */ z.lazy(() =>
  described(
    z._default(integerParam(z.int().check(z.gte(1), z.lte(maxPageSize))), defaultPageSize),
    `items per page, 1 to ${maxPageSize}`,
  ),
);
const sortDescription = 'sort field; the string `null` leaves the order unspecified';

export const lineItemSortFields = [
  'id',
  'plan_id',
  'offer_id',
  'account_id',
  'amortized_cost',
  'upfront_cost',
  'recurring_cost',
  'total_cost',
  'savings',
  'fee',
  'covered_ondemand_cost',
  'before_ondemand_cost',
  'before_reserved_cost',
  'covered_units',
  'before_cost',
  'monthly_savings',
  'breakeven_hours',
  'discount_rate',
  'monthly_cost',
  'selected_quantity',
  'offer.type',
  'offer.duration_seconds',
] as const;
export type LineItemSortField = (typeof lineItemSortFields)[number];

/** #7 line items. */
export const lineItemsQuery = /* @__PURE__ */ z.lazy(() =>
  z.strictObject({
    order_by: described(z._default(sortFieldParam(lineItemSortFields), 'id'), sortDescription),
    desc: described(z._default(booleanParam(), false), 'descending order when true'),
    segment_id: described(z.optional(singleValue(uuid)), 'only line items of this segment'),
    resource_match_ids: described(z.optional(listParam(uuid)), 'only line items with these resource matches'),
    page,
    page_size: pageSize,
  }),
);
export type LineItemsQuery = z.infer<typeof lineItemsQuery>;

export const resourceMatchSortFields = [
  'id',
  'unmatched_units',
  'total_units',
  'ondemand_price',
  'reserved_cost',
  'explanation_unmatched',
  'coverage',
  'ondemand_cost',
  'covered_ondemand_cost',
  'before_cost',
  'after_cost',
  'covered_units',
  'average_savings',
  'average_monthly_savings',
  'monthly_after_cost',
] as const;
export type ResourceMatchSortField = (typeof resourceMatchSortFields)[number];

/** #9 resource matches. */
export const resourceMatchesQuery = /* @__PURE__ */ z.lazy(() =>
  z
    .strictObject({
      order_by: described(
        z._default(sortFieldParam(resourceMatchSortFields), 'covered_ondemand_cost'),
        sortDescription,
      ),
      desc: described(z._default(booleanParam(), true), 'descending order when true'),
      start_date: described(dateParam(), 'start of the usage window'),
      end_date: described(dateParam(), 'end of the usage window'),
      line_item_ids: described(z.optional(listParam(uuid)), 'only matches of these line items'),
      page,
      page_size: pageSize,
    })
    .check(
      z.refine((query) => query.start_date <= query.end_date, {
        path: ['end_date'],
        message: 'must not be before start_date',
      }),
    ),
);
export type ResourceMatchesQuery = z.infer<typeof resourceMatchesQuery>;
