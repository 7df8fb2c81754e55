import { NotFoundError } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { loadOrgFor } from './org-access';
import type { AppContext, PlanContent } from './ports';

/**
 * Loads the content of a plan the caller may read: the org must be the caller's to see (reads
 * are open to every member; a partner reaches its child orgs), and the plan must be that org's.
 * Unknown plans and plans of other orgs answer 404 alike.
 */
export async function loadPlanFor(
  ctx: AppContext,
  principal: Principal,
  orgId: string,
  planId: string,
): Promise<PlanContent> {
  await loadOrgFor(ctx, principal, orgId, 'read');
  const content = await ctx.repos.plans.planContent(orgId, planId.toLowerCase());
  if (!content) throw new NotFoundError(`Commitment plan ${planId} not found`);
  return content;
}
