import { computePlans, type Provider } from '../domain/engine';
import {
  type ComputedPlanSet,
  isCurrent,
  lookbackWindow,
  type PlanCalculation,
  type PlanSetState,
  planSeed,
  usageVersionOf,
} from '../domain/plans/plan-set';
import { importStatus, type UsageState } from '../domain/usage/usage-state';
import { loadPlanInputs } from './plan-inputs';
import type { ContextWith } from './ports';

/**
 * Keeping an org's plans current (docs/plans-api.md, Freshness): plans are computed from the
 * provider's stored usage and commitments when an import changes them, and lazily when a plan
 * endpoint finds none or only stale ones. One computation at a time per org and provider: it
 * claims the plan set with a conditional write first, and publishes its plans by completing the
 * claim.
 */

/** A claim older than this is taken to be dead (its process stopped) and may be taken over. */
export const defaultClaimTimeoutMs = 120_000;

export interface PlanRefreshOptions {
  readonly claimTimeoutMs?: number;
}

/**
 * `current`: the stored plans were current already (or became so meanwhile); `computed`: this
 * call computed and published them; `calculating`: another computation holds the plan set;
 * `importing`: an import is changing the inputs, so nothing is computed until it ends (its end
 * computes them); `abandoned`: an import stopped half-way and its inputs are not whole, so
 * nothing is computed until an import of the provider finishes.
 */
export type PlanRefreshOutcome = 'current' | 'computed' | 'calculating' | 'importing' | 'abandoned';

export interface PlanRefresh {
  readonly outcome: PlanRefreshOutcome;
  /** The plan set as it stands after the refresh. */
  readonly planSet: PlanSetState | null;
  /** The usage state the refresh judged freshness by. */
  readonly usageState: UsageState | null;
}

/**
 * Makes the provider's plans current unless they are, an import is running, or another process
 * is computing them: claims the plan set, computes, stores and publishes the plans, then deletes
 * the plans they supersede (best effort: leftovers are never referenced again).
 */
export async function refreshPlans(
  ctx: ContextWith<'commitments' | 'orgs' | 'plans' | 'usage'>,
  orgId: string,
  provider: Provider,
  options: PlanRefreshOptions = {},
): Promise<PlanRefresh> {
  const { plans } = ctx.repos;
  const [usageState, planSet] = await Promise.all([
    ctx.repos.usage.usageState(orgId, provider),
    plans.planSet(orgId, provider),
  ]);
  const now = ctx.clock.now();
  if (isCurrent(planSet, usageState, now)) return { outcome: 'current', planSet, usageState };
  const status = importStatus(usageState, now);
  if (status === 'open') return { outcome: 'importing', planSet, usageState };
  if (status === 'abandoned') return { outcome: 'abandoned', planSet, usageState };

  const calculation: PlanCalculation = {
    claimId: ctx.ids.uuid(),
    usageVersion: usageVersionOf(usageState),
    startedAt: now.toISOString(),
  };
  const expiredBefore = new Date(now.getTime() - (options.claimTimeoutMs ?? defaultClaimTimeoutMs));
  if (!(await plans.claimCalculation(orgId, provider, calculation, expiredBefore.toISOString()))) {
    const latest = await plans.planSet(orgId, provider);
    return {
      outcome: isCurrent(latest, usageState, now) ? 'current' : 'calculating',
      planSet: latest,
      usageState,
    };
  }

  let computed: ComputedPlanSet;
  try {
    computed = await computeAndStore(ctx, orgId, provider, usageState, calculation);
  } catch (error) {
    // Let the next request compute at once rather than wait for the claim to expire.
    await plans.releaseCalculation(orgId, provider, calculation.claimId).catch(() => undefined);
    throw error;
  }
  if (await plans.completeCalculation(orgId, provider, calculation.claimId, computed)) {
    const published: PlanSetState = { orgId, provider, computed, calculation: null };
    await deletePlans(ctx, orgId, provider, planSet?.computed?.planIds ?? [], computed.planIds);
    return { outcome: 'computed', planSet: published, usageState };
  }
  // The claim expired and another computation took over: this one's plans are not published.
  const latest = await plans.planSet(orgId, provider);
  await deletePlans(ctx, orgId, provider, computed.planIds, latest?.computed?.planIds ?? []);
  return {
    outcome: isCurrent(latest, usageState, now) ? 'current' : 'calculating',
    planSet: latest,
    usageState,
  };
}

/**
 * The engine's plans from the stored inputs of the claimed version: the lookback ends with the
 * last hour of stored usage; every id is seeded by the org, provider and input version.
 */
async function computeAndStore(
  ctx: ContextWith<'commitments' | 'orgs' | 'plans' | 'usage'>,
  orgId: string,
  provider: Provider,
  usageState: UsageState | null,
  calculation: PlanCalculation,
): Promise<ComputedPlanSet> {
  const now = ctx.clock.now();
  const window = lookbackWindow(usageState?.lastHour ?? null, now);
  const inputs = await loadPlanInputs(ctx, orgId, provider, window, Boolean(usageState?.lastHour));
  const seed = planSeed(orgId, provider, calculation.usageVersion);
  const computed = computePlans(
    {
      orgId,
      provider,
      window,
      ...inputs,
      planSeed: seed,
      createdAt: now.toISOString(),
    },
    ctx.engineMemory,
  );
  await ctx.repos.plans.storePlans(
    orgId,
    { usageVersion: calculation.usageVersion, planSeed: seed, window, sharing: inputs.sharing },
    computed,
  );
  return {
    usageVersion: calculation.usageVersion,
    planIds: computed.plans.map((entry) => entry.plan.id),
    recommendedPlanId: computed.recommendedPlanId,
    computedAt: now.toISOString(),
  };
}

/** Deletes the plans of `planIds` not in `kept`; applied plans stay, failures are left for good. */
async function deletePlans(
  ctx: ContextWith<'commitments' | 'orgs' | 'plans' | 'usage'>,
  orgId: string,
  provider: Provider,
  planIds: readonly string[],
  kept: readonly string[],
): Promise<void> {
  const keep = new Set(kept);
  await Promise.all(
    planIds
      .filter((planId) => !keep.has(planId))
      .map((planId) => ctx.repos.plans.deletePlan(orgId, provider, planId).catch(() => false)),
  );
}
