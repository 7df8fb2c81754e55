/**
 * Plans within the org's upfront cap (docs/plan-engine.md, The upfront cap): every plan offered
 * must be one the org may buy, so a profile whose lines together pay more upfront than the
 * budget is chosen again with fewer payment options, the upfront ones first: without All Upfront
 * offers (Partial Upfront ones stay), then with offers that pay nothing upfront only, then, where
 * even that does not fit (the org's other purchases of the last 30 days already reach the cap),
 * with none.
 */

import type { OfferEconomics } from '../curves/quantity';
import type { Offer } from '../shapes/model';
import type { LineCoverage } from '../tallies/line-coverage';

/** The payment options a profile falls back to, in order, when the one before pays too much upfront. */
export const UPFRONT_FALLBACKS: readonly ((offer: Offer) => boolean)[] = [
  (offer) => offer.paymentOption !== 'All Upfront',
  (offer) => offer.upfront === 0,
  () => false,
];

/**
 * Economics no quantity is worth buying at: every unit costs without end and covers nothing the
 * plan counts (V = -infinity, W's bound 0), so the choice of lines passes the offer by exactly as
 * it passes an offer that does not save money.
 */
const NEVER_BOUGHT: OfferEconomics = {
  rate: Number.POSITIVE_INFINITY,
  liveHours: 0,
  billedHours: 1,
  feeRate: 0,
};

/** `economicsOf` for the offers `allowed`, and NEVER_BOUGHT for the others. */
export function allowedEconomics(
  economicsOf: (offer: Offer) => OfferEconomics,
  allowed: (offer: Offer) => boolean,
): (offer: Offer) => OfferEconomics {
  return (offer) => (allowed(offer) ? economicsOf(offer) : NEVER_BOUGHT);
}

/** What the lines pay upfront together: the sum of their line items' `upfront_cost`. */
export function upfrontOf(coverages: readonly LineCoverage[]): number {
  let total = 0;
  for (const { line } of coverages) total += line.quantity * line.offer.upfront;
  return total;
}

/** Whether `upfront` fits `budget` (null: no cap), float noise of the sums aside. */
export function fitsBudget(upfront: number, budget: number | null): boolean {
  return budget === null || upfront <= budget + 1e-9 * Math.max(1, Math.abs(budget));
}
