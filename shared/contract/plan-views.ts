import type {
  ChartPoint,
  CommitmentPlan,
  LineItem,
  PurchasePlan,
  RecommendedPurchasePlan,
  ResourceMatch,
} from '../domain/engine';
import { type ChartResponse, chartResponse } from './chart';
import type { LineItemSortField, ResourceMatchSortField } from './plan-queries';
import {
  type CommitmentPlan as CommitmentPlanView,
  commitmentPlan,
  type LineItem as LineItemView,
  lineItem,
} from './plans';
import {
  type PurchasePlan as PurchasePlanView,
  purchasePlan,
  type RecommendedPurchasePlan as RecommendedPurchasePlanView,
  recommendedPurchasePlan,
} from './purchase-plans';
import { type ResourceMatch as ResourceMatchView, resourceMatch } from './resource-matches';

/**
 * The engine's plans as the contract shows them (#5, #6, #7, #9, #10, #12). Each view is parsed
 * through its response schema, so a field the contract does not name can never leak into a
 * response. The sort keys say which field each `order_by` value of #7 and #9 sorts by.
 */

export function commitmentPlanView(plan: CommitmentPlan): CommitmentPlanView {
  return commitmentPlan.parse(plan);
}

/** Offers of these contract types are leased (guaranteed): only their line items have a leased-menu entry. */
const isLeased = (item: LineItem) => item.offer.type.startsWith('leased_');

function lineItemView(item: LineItem): LineItemView {
  return lineItem.parse({ ...item, lease_menu_item_id: isLeased(item) ? item.lease_menu_item_id : null });
}

const lineItemJsons = new WeakMap<LineItem, string>();

/**
 * A line item's view as JSON text, made once per line item: a plan's line items never change and
 * its content is cached per process (docs/plans-api.md), so every page of #7 sends the text made
 * for the first one instead of parsing and serializing the same items again. Held only as long as
 * the line item is.
 */
export function lineItemJson(item: LineItem): string {
  let json = lineItemJsons.get(item);
  if (json === undefined) {
    json = JSON.stringify(lineItemView(item));
    lineItemJsons.set(item, json);
  }
  return json;
}

export function resourceMatchView(match: ResourceMatch): ResourceMatchView {
  return resourceMatch.parse(match);
}

export function recommendedPurchasePlanView(plan: RecommendedPurchasePlan): RecommendedPurchasePlanView {
  return recommendedPurchasePlan.parse(plan);
}

export function chartView(points: readonly ChartPoint[]): ChartResponse {
  return chartResponse.parse({ data: points });
}

type SortKeys<T, F extends string> = Readonly<Record<F, (item: T) => string | number>>;

/** #7: the line-item field each `order_by` value sorts by (`amortized_cost` is the commitment's). */
export const lineItemSortKeys: SortKeys<LineItem, LineItemSortField> = {
  id: (item) => item.id,
  plan_id: (item) => item.plan_id,
  offer_id: (item) => item.offer_id,
  account_id: (item) => item.account_id,
  amortized_cost: (item) => item.after_amortized_cost,
  upfront_cost: (item) => item.upfront_cost,
  recurring_cost: (item) => item.recurring_cost,
  total_cost: (item) => item.total_cost,
  savings: (item) => item.savings,
  fee: (item) => item.fee,
  covered_ondemand_cost: (item) => item.covered_ondemand_cost,
  before_ondemand_cost: (item) => item.before_ondemand_cost,
  before_reserved_cost: (item) => item.before_reserved_cost,
  covered_units: (item) => item.after_covered_units,
  before_cost: (item) => item.before_cost,
  monthly_savings: (item) => item.monthly_savings,
  breakeven_hours: (item) => item.breakeven_hours,
  discount_rate: (item) => item.discount_rate,
  monthly_cost: (item) => item.monthly_cost,
  selected_quantity: (item) => item.selected_quantity,
  'offer.type': (item) => item.offer.type,
  'offer.duration_seconds': (item) => item.offer.duration_seconds,
};

/**
 * #9: the match field each `order_by` value sorts by, after the plan (`unmatched_units` are the
 * units left uncovered, `reserved_cost` and `ondemand_cost` the costs after the plan).
 * `explanation_unmatched`: a match carries no explanation (the contract has no such field), so
 * every match sorts equal and the order is the tie-break, by id.
 */
export const resourceMatchSortKeys: SortKeys<ResourceMatch, ResourceMatchSortField> = {
  id: (match) => match.id,
  unmatched_units: (match) => match.after_uncovered_units,
  total_units: (match) => match.total_units,
  ondemand_price: (match) => match.ondemand_price,
  reserved_cost: (match) => match.after_reserved_cost,
  explanation_unmatched: () => '',
  coverage: (match) => match.coverage,
  ondemand_cost: (match) => match.after_ondemand_cost,
  covered_ondemand_cost: (match) => match.covered_ondemand_cost,
  before_cost: (match) => match.before_cost,
  after_cost: (match) => match.after_cost,
  covered_units: (match) => match.after_covered_units,
  average_savings: (match) => match.average_savings,
  average_monthly_savings: (match) => match.average_monthly_savings,
  monthly_after_cost: (match) => match.monthly_after_cost,
};

export function purchasePlanView(plan: PurchasePlan): PurchasePlanView {
  return purchasePlan.parse(plan);
}
