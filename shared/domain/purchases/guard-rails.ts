import type { Offer, PlanStatus } from '../engine';
import { effectiveHourly } from './purchase-orders';
import { type PurchaseRecord, purchasingStatuses } from './purchase-record';

/** Prices within this share of the limit count as unchanged (float noise of catalog arithmetic). */
const PRICE_TOLERANCE = 1e-9;

/** The org's execution policy: what the processor may spend without asking anyone again. */
export interface ExecutionPolicy {
  /** The most the org's purchases may pay upfront over any 30 days, USD; null: no limit. */
  readonly maxUpfrontCost: number | null;
}

/** The span the upfront cap bounds: any 30 days. */
export const UPFRONT_CAP_WINDOW_HOURS = 720;

const HOUR_MS = 3_600_000;

/**
 * What the org pays upfront over the 30 days ending `now` if plan `planId` is bought in full:
 * `planUpfront` (every purchase of the plan, at its planned cost) plus every other plan's
 * purchase not refused whose time (bought, else created) is in the window, at what the provider
 * charged or, until bought, what was planned. Counting other plans' open purchases too keeps two
 * plans applied at once from passing the cap together.
 */
export function upfrontOverWindow(
  records: readonly Pick<
    PurchaseRecord,
    'planId' | 'status' | 'createdAt' | 'completedAt' | 'upfrontCost' | 'plannedUpfrontCost'
  >[],
  planId: string,
  planUpfront: number,
  now: Date,
): number {
  const since = now.getTime() - UPFRONT_CAP_WINDOW_HOURS * HOUR_MS;
  return records
    .filter((record) => record.planId !== planId && record.status !== 'failed')
    .filter((record) => Date.parse(record.completedAt ?? record.createdAt) > since)
    .reduce((total, record) => total + (record.upfrontCost ?? record.plannedUpfrontCost), planUpfront);
}

/**
 * What one more plan may pay upfront now under the cap `maxUpfrontCost` (null: no cap): the cap
 * less what the org's purchases not refused pay upfront in the 30 days ending `now`. Plans are
 * chosen within it (docs/plan-engine.md, The upfront cap), so every plan offered can be applied.
 */
export function upfrontBudget(
  maxUpfrontCost: number | null,
  records: Parameters<typeof upfrontOverWindow>[0],
  now: Date,
): number | null {
  return maxUpfrontCost === null ? null : maxUpfrontCost - upfrontOverWindow(records, '', 0, now);
}

/** Whether `upfront` passes the policy's cap (float noise of catalog arithmetic aside). */
export function exceedsUpfrontCap(upfront: number, policy: ExecutionPolicy): boolean {
  return policy.maxUpfrontCost !== null && upfront > policy.maxUpfrontCost * (1 + PRICE_TOLERANCE);
}

/** Why a cap refuses, in words. */
export function upfrontCapReason(upfront: number, maxUpfrontCost: number): string {
  return `the organization's upfront purchases over 30 days, this plan's included, would be ${money(upfront)}, above its max_upfront_cost ${money(maxUpfrontCost)}`;
}

/**
 * What the processor checks before buying a record that no attempt has sent to the provider yet
 * (docs/purchases.md): `wait` leaves the record queued (its plan is not scheduled: an apply that stopped
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
  /** What the org pays upfront over the 30 days ending now with this plan bought (`upfrontOverWindow`). */
  readonly upfrontOverWindow: number;
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
  if (policy.maxUpfrontCost !== null && exceedsUpfrontCap(input.upfrontOverWindow, policy)) {
    return refuse(
      'max_upfront_cost_exceeded',
      upfrontCapReason(input.upfrontOverWindow, policy.maxUpfrontCost),
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
