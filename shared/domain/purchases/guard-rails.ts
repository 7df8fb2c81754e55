import type { Offer, PlanStatus } from '../engine';
import { effectiveHourly } from './purchase-orders';
import { type PurchaseRecord, purchasingStatuses } from './purchase-record';

/** Prices within this share of the limit count as unchanged (float noise of catalog arithmetic). */
const PRICE_TOLERANCE = 1e-9;

/** The org's execution policy: what the processor may spend without asking anyone again. */
export interface ExecutionPolicy {
  /** The most a plan's purchases may pay upfront in total, USD; null: no limit. */
  readonly maxUpfrontCost: number | null;
}

/**
 * What the processor checks before buying a record that no attempt has sent to the provider yet
 * (DESIGN §9): `wait` leaves the record queued (its plan is not scheduled: an apply that stopped
 * half-way, which its retry completes); `refuse` fails it, with the reason, nothing bought.
 */
export type GuardRailDecision =
  | { readonly decision: 'buy' }
  | { readonly decision: 'wait'; readonly reason: string }
  | { readonly decision: 'refuse'; readonly code: GuardRailCode; readonly reason: string };

export type GuardRailCode =
  | 'plan_not_owned'
  | 'max_upfront_cost_exceeded'
  | 'offer_withdrawn'
  | 'price_changed';

export interface GuardRailInput {
  readonly record: PurchaseRecord;
  /** The plan as stored now; null when the org has no such plan. */
  readonly plan: { readonly orgId: string; readonly status: PlanStatus } | null;
  readonly policy: ExecutionPolicy;
  /** The planned upfront cost of all the plan's purchases. */
  readonly planUpfrontCost: number;
  /** The catalog's offer now; undefined when it is no longer offered. */
  readonly offer: Offer | undefined;
}

export function checkGuardRails(input: GuardRailInput): GuardRailDecision {
  const { record, plan, policy, offer } = input;
  if (!plan || plan.orgId !== record.orgId) {
    return refuse('plan_not_owned', `organization ${record.orgId} does not own plan ${record.planId}`);
  }
  if (!purchasingStatuses.includes(plan.status)) {
    return { decision: 'wait', reason: `plan ${record.planId} is ${plan.status}, not scheduled` };
  }
  if (
    policy.maxUpfrontCost !== null &&
    input.planUpfrontCost > policy.maxUpfrontCost * (1 + PRICE_TOLERANCE)
  ) {
    return refuse(
      'max_upfront_cost_exceeded',
      `the plan's upfront cost ${money(input.planUpfrontCost)} exceeds the organization's max_upfront_cost ${money(policy.maxUpfrontCost)}`,
    );
  }
  if (!offer) return refuse('offer_withdrawn', `offer ${record.offerId} is no longer offered`);
  const limit = record.limitPrice;
  if (above(offer.upfront, limit.upfront) || above(effectiveHourly(offer), limit.hourly)) {
    return refuse(
      'price_changed',
      `the offer's price moved above the price the plan was applied at (upfront ${offer.upfront} > ${limit.upfront} or hourly ${effectiveHourly(offer)} > ${limit.hourly})`,
    );
  }
  return { decision: 'buy' };
}

function refuse(code: GuardRailCode, reason: string): GuardRailDecision {
  return { decision: 'refuse', code, reason };
}

function above(price: number, limit: number): boolean {
  return price > limit * (1 + PRICE_TOLERANCE) + Number.EPSILON;
}

function money(amount: number): string {
  return `$${amount.toFixed(2)}`;
}
