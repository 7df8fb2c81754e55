import type { RecommendedPurchasePlan } from '../domain/engine';
import { BoundedCache } from './bounded-cache';
import type { Clock, PlanContent, PlanRepository } from './ports';

export interface PlanContentCacheOptions {
  /** Plans whose content is kept (each holds its line items: tens of KB to a few MB). */
  readonly maxPlans: number;
  /**
   * How long content is kept. Content never changes under a plan id, but superseded plans are
   * deleted: this bounds how long a process that cached one keeps serving it.
   */
  readonly maxAgeMs: number;
}

export const defaultPlanContentCacheOptions: PlanContentCacheOptions = { maxPlans: 64, maxAgeMs: 300_000 };

/**
 * Keeps what is fixed under a plan id in process memory (docs/plans-api.md, Caching): a plan's
 * content, its match-to-line-item map and its v2 purchase plan. A plan id names one computation's
 * output (new inputs give new ids), so the content is never out of date; a plan's `status` can
 * change and is never cached (`getPlans` always reads). Everything else passes through.
 */
export function withPlanContentCache(
  plans: PlanRepository,
  clock: Clock,
  options: PlanContentCacheOptions = defaultPlanContentCacheOptions,
): PlanRepository {
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
