import type { Clock, PlanContent, PlanRepository } from '../../app/ports';
import type { RecommendedPurchasePlan } from '../../domain/engine';
import { BoundedCache } from './bounded-cache';

export interface PlanContentCacheOptions {
  /** Plans whose content is kept (each holds its line items: tens of KB to a few MB). */
  readonly maxPlans: number;
  /**
   * How long content is kept. Content never changes under a plan id; the bound only lets a
   * process forget plans nobody asks for (whether a plan is still served is read every time).
   */
  readonly maxAgeMs: number;
}

export const defaultPlanContentCacheOptions: PlanContentCacheOptions = { maxPlans: 64, maxAgeMs: 300_000 };

/**
 * Keeps what is fixed under a plan id in process memory (docs/architecture.md, Caches): a plan's
 * content, its match-to-line-item map and its v2 purchase plan. A plan id names one computation's
 * output (new inputs give new ids), so the content is never out of date. What can change is never
 * cached: a plan's `status` (`getPlans` always reads) and whether the plan is still the published
 * one (`planSet` always reads; `loadPlanFor` checks it on every request, so a superseded plan is
 * never served from here). Everything else passes through.
 */
export function withPlanContentCache<
  Plans extends Pick<PlanRepository, 'planContent' | 'resourceMatchLineItems' | 'purchasePlan'>,
>(plans: Plans, clock: Clock, options: PlanContentCacheOptions = defaultPlanContentCacheOptions): Plans {
  const settings = { maxEntries: options.maxPlans, maxAgeMs: options.maxAgeMs, clock };
  const contents = new BoundedCache<PlanContent>(settings);
  const matchLineItems = new BoundedCache<ReadonlyMap<string, string>>(settings);
  const purchasePlans = new BoundedCache<RecommendedPurchasePlan>(settings);
  return {
    ...plans,
    async planContent(orgId, planId) {
      // Keyed by plan id alone (ids are derived from the org, so unique across orgs); another
      // org asking for the plan is answered as if it did not exist.
      const content = await contents.get(planId, () => plans.planContent(orgId, planId));
      return content?.orgId === orgId ? content : null;
    },
    async resourceMatchLineItems(planId) {
      return (await matchLineItems.get(planId, () => plans.resourceMatchLineItems(planId))) ?? new Map();
    },
    purchasePlan(planId) {
      return purchasePlans.get(planId, () => plans.purchasePlan(planId));
    },
  };
}
