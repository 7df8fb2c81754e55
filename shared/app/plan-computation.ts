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
import type { UsageState } from '../domain/usage/usage-state';
import { storedPlanState } from './plan-freshness';
import { loadPlanInputs } from './plan-inputs';
import type { ContextWith, PlanRefresh, WithPlanComputation } from './ports';

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
 * Makes the provider's plans current unless they are, an import is running, or another process
 * is computing them: claims the plan set, computes, stores and publishes the plans, then deletes
 * the plans they supersede (best effort: leftovers are never referenced again).
 */
export async function refreshPlans(
  ctx: ContextWith<'catalog' | 'commitments' | 'computedPlans' | 'orgs' | 'plans' | 'purchases' | 'usage'>,
  orgId: string,
  provider: Provider,
  options: PlanRefreshOptions = {},
): Promise<PlanRefresh> {
  const { plans } = ctx.repos;
  const stored = await storedPlanState(ctx, orgId, provider);
  if (stored.outcome !== 'stale') return stored;
  const { planSet, usageState } = stored;
  const now = ctx.clock.now();

  const calculation: PlanCalculation = {
    claimId: ctx.ids.uuid(),
    usageVersion: usageVersionOf(usageState),
    startedAt: now.toISOString(),
  };
  const expiredBefore = new Date(now.getTime() - (options.claimTimeoutMs ?? defaultClaimTimeoutMs));
  if (
    !(await ctx.repos.computedPlans.claimCalculation(
      orgId,
      provider,
      calculation,
      expiredBefore.toISOString(),
    ))
  ) {
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
    await ctx.repos.computedPlans
      .releaseCalculation(orgId, provider, calculation.claimId)
      .catch(() => undefined);
    throw error;
  }
  if (await ctx.repos.computedPlans.completeCalculation(orgId, provider, calculation.claimId, computed)) {
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
 * `ctx` with its plans computed in this process (the local runtime, tools, tests): its
 * `planComputation` runs `refreshPlans` on the returned context itself. A context made from it by
 * spreading (`{ ...computing, clock }`) still computes with this one's repositories and clock:
 * make such a variant from the plain context and pass it through here again.
 */
export function computingPlansHere<
  C extends ContextWith<
    'catalog' | 'commitments' | 'computedPlans' | 'orgs' | 'plans' | 'purchases' | 'usage'
  >,
>(ctx: C): WithPlanComputation<C> {
  const computing: WithPlanComputation<C> = {
    ...ctx,
    planComputation: (orgId, provider) => refreshPlans(computing, orgId, provider),
  };
  return computing;
}

/**
 * The engine's plans from the stored inputs of the claimed version: the lookback ends with the
 * last hour of stored usage; every id is seeded by the org, provider and input version.
 */
async function computeAndStore(
  ctx: ContextWith<'catalog' | 'commitments' | 'computedPlans' | 'orgs' | 'plans' | 'purchases' | 'usage'>,
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
      // The plan's clock: owned commitments count by where they stand at it (docs/plan-engine.md).
      createdAt: now.toISOString(),
    },
    ctx.engineMemory,
  );
  await ctx.repos.computedPlans.storePlans(
    orgId,
    {
      usageVersion: calculation.usageVersion,
      planSeed: seed,
      window,
      sharing: inputs.sharing,
      renewalHorizonDays: inputs.renewalHorizonDays,
      catalogVersion: inputs.catalogVersion,
    },
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
  ctx: ContextWith<'catalog' | 'commitments' | 'computedPlans' | 'orgs' | 'plans' | 'purchases' | 'usage'>,
  orgId: string,
  provider: Provider,
  planIds: readonly string[],
  kept: readonly string[],
): Promise<void> {
  const keep = new Set(kept);
  await Promise.all(
    planIds
      .filter((planId) => !keep.has(planId))
      .map((planId) => ctx.repos.computedPlans.deletePlan(orgId, provider, planId).catch(() => false)),
  );
}
