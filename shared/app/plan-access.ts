import { NotFoundError } from '../domain/errors';
import { isPinnedStatus, isServedPlan } from '../domain/plans/plan-set';
import type { Principal } from '../domain/principal';
import { loadOrgFor } from './org-access';
import type { ContextWith, PlanContent, PlanRepository } from './ports';

/** What finding a served plan reads: the org's placement and, of the plans, these reads. */
export type PlanAccessContext = ContextWith<'orgs'> & {
  readonly repos: { readonly plans: Pick<PlanRepository, 'planContent' | 'planSet' | 'getPlans'> };
};

/**
 * Loads the content of a plan the caller may read: the org must be the caller's to see (reads
 * are open to every member; a partner reaches its child orgs), and the plan must be that org's
 * and still served: one of its provider's published plans, or pinned (applied). Unknown plans,
 * superseded ones and plans of other orgs answer 404 alike.
 */
export async function loadPlanFor(
  ctx: PlanAccessContext,
  principal: Principal,
  orgId: string,
  planId: string,
): Promise<PlanContent> {
  await loadOrgFor(ctx, principal, orgId, 'read');
  const content = await ctx.repos.plans.planContent(orgId, planId.toLowerCase());
  if (!content || !(await isStillServed(ctx, content))) {
    throw new NotFoundError(`Commitment plan ${planId} not found`);
  }
  return content;
}

/**
 * Reads the plan set on every request (content may come from a process's cache, but whether the
 * plan is superseded must not): a plan stops being served in every process the moment newer
 * plans are published. Only a plan outside the set costs a second read, of its status.
 */
async function isStillServed(ctx: PlanAccessContext, content: PlanContent): Promise<boolean> {
  const { orgId, provider, planId } = content;
  const planSet = await ctx.repos.plans.planSet(orgId, provider);
  if (isServedPlan(planSet, planId)) return true;
  const [stored] = await ctx.repos.plans.getPlans(orgId, provider, [planId]);
  return isServedPlan(planSet, planId, stored !== undefined && isPinnedStatus(stored.plan.status));
}
