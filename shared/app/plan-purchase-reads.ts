import type { CommitmentPlan } from '../domain/engine';
import { NotFoundError } from '../domain/errors';
import type { Principal } from '../domain/principal';
import type { PurchaseRecord } from '../domain/purchases/purchase-record';
import { loadPlanFor } from './plan-access';
import type { ContextWith } from './ports';

/**
 * Reading what applying a plan did (extensions of the interface): the plan by id, to poll its
 * status, and its purchase records. Open to every member of the org, like the other plan reads.
 */

export async function getPlan(
  ctx: ContextWith<'orgs' | 'plans' | 'purchases'>,
  principal: Principal,
  orgId: string,
  planId: string,
): Promise<CommitmentPlan> {
  const content = await loadPlanFor(ctx, principal, orgId, planId);
  const [stored] = await ctx.repos.plans.getPlans(content.orgId, content.provider, [content.planId]);
  if (!stored) throw new NotFoundError(`Commitment plan ${planId} not found`);
  return stored.plan;
}

/** The plan's purchase records, in line item order (none until it is applied). */
export async function listPlanPurchases(
  ctx: ContextWith<'orgs' | 'plans' | 'purchases'>,
  principal: Principal,
  orgId: string,
  planId: string,
): Promise<PurchaseRecord[]> {
  const content = await loadPlanFor(ctx, principal, orgId, planId);
  const position = new Map(content.lineItems.map((item, index) => [item.id, index]));
  const records = await ctx.repos.purchases.listByPlan(content.planId);
  return records
    .filter((record) => record.orgId === orgId)
    .sort((a, b) => (position.get(a.lineItemId) ?? 0) - (position.get(b.lineItemId) ?? 0));
}
