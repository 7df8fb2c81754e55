import type { CommitmentPlan, Provider, RecommendedPurchasePlan } from '../domain/engine';
import { isCurrent, type PlanSetState } from '../domain/plans/plan-set';
import type { Principal } from '../domain/principal';
import { loadOrgFor } from './org-access';
import { storedPlanState } from './plan-freshness';
import type { ContextWith, PlanRefresh, WithPlanComputation } from './ports';

/**
 * The plans an org is shown for a provider (#5, #6, #12): the current ones, computed on the spot
 * when they are missing or stale (by the context's `planComputation`: in this process, or on AWS
 * in the plan-computation function). While another process computes them, the stored ones are
 * served with `is_calculating: true`; when none is stored yet, the request waits for them a little.
 */

/** What serving plans needs: the repositories it reads, and the computation it calls when stale. */
export type PlanServingContext = WithPlanComputation<ContextWith<'orgs' | 'plans' | 'usage'>>;

export interface PlanServingOptions {
  /** How long a request waits for another process's first plans of a provider. */
  readonly waitForFirstPlansMs?: number;
  /** How often it looks while it waits. */
  readonly pollIntervalMs?: number;
}

export const defaultWaitForFirstPlansMs = 10_000;
export const defaultPollIntervalMs = 250;

/** The plans served for a provider, in profile order, `is_calculating` set. */
interface ServedPlans {
  readonly plans: readonly CommitmentPlan[];
  readonly recommendedPlanId: string | null;
}

/** Spec #6: the provider's default plans (three, or none before the first computation ends). */
export async function listDefaultPlans(
  ctx: PlanServingContext,
  principal: Principal,
  orgId: string,
  provider: Provider,
  options: PlanServingOptions = {},
): Promise<CommitmentPlan[]> {
  await loadOrgFor(ctx, principal, orgId, 'read');
  return [...(await servedPlans(ctx, orgId, provider, options)).plans];
}

/** Spec #5: the provider's recommended plan; null when it has none (no usage, or nothing saves money). */
export async function getRecommendedPlan(
  ctx: PlanServingContext,
  principal: Principal,
  orgId: string,
  provider: Provider,
  options: PlanServingOptions = {},
): Promise<CommitmentPlan | null> {
  await loadOrgFor(ctx, principal, orgId, 'read');
  return recommendedOf(await servedPlans(ctx, orgId, provider, options));
}

/**
 * Spec #12: the recommended plan as a v2 purchase plan, for the providers plans are computed
 * for; null for others (`kubernetes`, `unknown`) and when there is no recommended plan.
 */
export async function getRecommendedPurchasePlan(
  ctx: PlanServingContext,
  principal: Principal,
  orgId: string,
  provider: string,
  options: PlanServingOptions = {},
): Promise<RecommendedPurchasePlan | null> {
  await loadOrgFor(ctx, principal, orgId, 'read');
  if (!isPlannedProvider(provider)) return null;
  const plan = recommendedOf(await servedPlans(ctx, orgId, provider, options));
  const purchasePlan = plan ? await ctx.repos.plans.purchasePlan(plan.id) : null;
  if (!plan || !purchasePlan) return null;
  return { ...purchasePlan, status: plan.status, is_calculating: plan.is_calculating };
}

function recommendedOf({ plans, recommendedPlanId }: ServedPlans): CommitmentPlan | null {
  return plans.find((plan) => plan.id === recommendedPlanId) ?? null;
}

function isPlannedProvider(provider: string): provider is Provider {
  return provider === 'aws' || provider === 'azure' || provider === 'gcp';
}

async function servedPlans(
  ctx: PlanServingContext,
  orgId: string,
  provider: Provider,
  options: PlanServingOptions,
): Promise<ServedPlans> {
  const refresh = await currentPlans(ctx, orgId, provider);
  let planSet = refresh.planSet?.computed
    ? refresh.planSet
    : await waitForFirstPlans(ctx, orgId, provider, refresh.planSet, options);
  for (let attempt = 1; ; attempt++) {
    const computed = planSet?.computed;
    if (!computed) return { plans: [], recommendedPlanId: null };
    const stored = await ctx.repos.plans.getPlans(orgId, provider, computed.planIds);
    // A plan missing: the set was superseded (and deleted) since it was read; read the new one.
    if (stored.length === computed.planIds.length || attempt === 2) {
      const calculating = !isCurrent(planSet, refresh.usageState, ctx.clock.now());
      return {
        plans: stored.map(({ plan }) => ({ ...plan, is_calculating: calculating })),
        recommendedPlanId: computed.recommendedPlanId,
      };
    }
    planSet = await ctx.repos.plans.planSet(orgId, provider);
  }
}

/** The stored plans when they are current (or must not be computed now), else a computation's. */
async function currentPlans(
  ctx: PlanServingContext,
  orgId: string,
  provider: Provider,
): Promise<PlanRefresh> {
  const stored = await storedPlanState(ctx, orgId, provider);
  if (stored.outcome !== 'stale') return stored;
  return ctx.planComputation(orgId, provider);
}

/** Polls the plan set while another process computes its first plans, up to the wait bound. */
async function waitForFirstPlans(
  ctx: PlanServingContext,
  orgId: string,
  provider: Provider,
  planSet: PlanSetState | null,
  options: PlanServingOptions,
): Promise<PlanSetState | null> {
  const deadline = ctx.clock.now().getTime() + (options.waitForFirstPlansMs ?? defaultWaitForFirstPlansMs);
  let latest = planSet;
  while (latest?.calculation && !latest.computed && ctx.clock.now().getTime() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? defaultPollIntervalMs));
    latest = await ctx.repos.plans.planSet(orgId, provider);
  }
  return latest;
}
