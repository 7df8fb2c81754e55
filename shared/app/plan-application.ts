import type { CommitmentPlan, PurchasePlan, RecommendedPurchasePlan } from '../domain/engine';
import { ForbiddenError, InsufficientScopeError, NotFoundError } from '../domain/errors';
import { type Membership, normalizeEmail } from '../domain/orgs';
import { hasScope, roleMayApply } from '../domain/permissions';
import type { StoredPlan } from '../domain/plans/plan-set';
import type { Principal } from '../domain/principal';
import { flaggedActionOf } from '../domain/purchases/flagged-actions';
import { applicableStatuses, type PurchaseRecord } from '../domain/purchases/purchase-record';
import type { ApplyContext } from './apply-context';
import { loadOrgFor } from './org-access';
import { loadPlanFor } from './plan-access';
import {
  type ApplicationDecision,
  claimComputation,
  decideApplication,
  schedulingRefusal,
} from './plan-application-decision';
import type { ContextWith, PlanContent } from './ports';
import { PurchaseQueueSendError } from './ports/purchase-queue';
import { purchaseMessageOf } from './purchase-messages';

export type { ApplyContext, ApplyRepository } from './apply-context';

/**
 * Applying a plan (#8) and purchasing one for a user (#13), docs/purchases.md: the plan moves to
 * `scheduled` with one purchase record per selected line item, and one queue message per record
 * wakes the processor. Everything that can refuse runs first, writing nothing (`decideApplication`):
 * status, outdated plan, applied sibling, unbuyable line, the org's upfront cap. The first write is
 * the computation's claim (one plan per computation); then the records; then one transaction moves
 * the plan to `scheduled` and, for #13, makes the user a member, all or nothing; then the messages.
 * A request that stops half-way is completed by its retry (the claim stays the same caller's, the
 * records are written once); a lost message is sent again by the sweep.
 */

/** The scope that lets a token make a non-member a member through #13 (besides `plans:apply`). */
const MEMBERSHIP_SCOPE = 'org:write';

/** Spec #8: applies the plan as the calling user. */
export async function applyPlan(
  ctx: ApplyContext,
  principal: Principal,
  orgId: string,
  planId: string,
): Promise<CommitmentPlan> {
  if (principal.kind !== 'user') {
    throw new ForbiddenError(
      'A plan is applied by a user: partners name the user with POST /v2/org/{org_id}/partners/purchase-plans-v2/{plan_id}/purchase',
    );
  }
  await loadOrgFor(ctx, principal, orgId, 'apply');
  const content = await loadPlanFor(ctx, principal, orgId, planId);
  const decision = await decideApplication(ctx, content, await storedPlan(ctx, content), principal.userId);
  const applied = await applyAs(ctx, content, decision, null);
  return applied.plan;
}

/**
 * Spec #13: the partner (or the org's admin) has the plan purchased as the user named by
 * `email`, who becomes a member (role `user`) if not one yet: that needs the `org:write` scope
 * too. A member whose role may not apply plans is refused. Every refusal runs before anything is
 * written, and the membership is written in one transaction with the plan's move to `scheduled`.
 */
export async function purchasePlanFor(
  ctx: ApplyContext,
  principal: Principal,
  orgId: string,
  planId: string,
  email: string,
): Promise<PurchasePlan> {
  await loadOrgFor(ctx, principal, orgId, 'manage');
  const content = await loadPlanFor(ctx, principal, orgId, planId);
  const purchasePlan = await ctx.repos.plans.purchasePlan(content.planId);
  if (!purchasePlan) throw new NotFoundError(`Purchase plan ${planId} not found`);
  const stored = await storedPlan(ctx, content);

  const userEmail = normalizeEmail(email);
  const membership = await ctx.repos.memberships.get(orgId, userEmail);
  if (membership && !roleMayApply(membership.role)) {
    throw new ForbiddenError(
      `${userEmail} is a ${membership.role} of organization ${orgId}, who may not apply plans`,
    );
  }
  if (!membership && !hasScope(principal, MEMBERSHIP_SCOPE)) {
    throw new InsufficientScopeError(MEMBERSHIP_SCOPE);
  }
  const decision = await decideApplication(ctx, content, stored, userEmail);
  const newMember: Membership | null = membership
    ? null
    : { orgId, email: userEmail, role: 'user', createdAt: decision.at, updatedAt: decision.at };
  const applied = await applyAs(ctx, content, decision, newMember);
  const records = await ctx.repos.purchases.listByPlan(content.planId);
  return appliedPurchasePlan(purchasePlan, applied, records);
}

/**
 * The v2 purchase plan of an applied plan: its status, last change and one flagged action per
 * purchase. The recommended plan's figures it still carries are left out by the response schema.
 */
export function appliedPurchasePlan(
  purchasePlan: RecommendedPurchasePlan,
  stored: StoredPlan,
  records: readonly PurchaseRecord[],
): PurchasePlan {
  const plan = stored.plan;
  const appliedBy = stored.application?.appliedBy ?? '';
  return {
    ...purchasePlan,
    status: plan.status,
    last_modified: stored.application?.lastModified ?? purchasePlan.last_modified,
    flagged_actions: records.map((record) =>
      flaggedActionOf(record, {
        id: plan.id,
        name: plan.name,
        status: plan.status,
        isDefault: purchasePlan.is_default,
        appliedBy,
      }),
    ),
  };
}

/** Applies the plan as `decision.appliedBy`, making `newMember` a member in the same transaction that schedules it. */
async function applyAs(
  ctx: ApplyContext,
  content: PlanContent,
  decision: ApplicationDecision,
  newMember: Membership | null,
): Promise<StoredPlan> {
  const { records, at, appliedBy } = decision;
  await claimComputation(ctx, content, decision);

  // Both before the plan is scheduled: the marker lets the sweep find the records.
  const [, created] = await Promise.all([
    ctx.repos.purchases.markPurchasing({
      planId: content.planId,
      orgId: content.orgId,
      provider: content.provider,
      since: at,
    }),
    ctx.repos.purchases.createRecords(records),
  ]);
  // Applying again after a review: refused lines are bought again, at today's price (the user
  // approved it by applying); bought ones stay bought.
  const fresh = new Map(records.map((record) => [record.lineItemId, record]));
  const toSend: PurchaseRecord[] = [];
  for (const record of created) {
    if (record.status === 'failed') {
      const requeued = await ctx.repos.purchases.requeue(
        record,
        at,
        fresh.get(record.lineItemId)?.limitPrice,
      );
      if (requeued) toSend.push(requeued);
    } else if (record.status === 'queued' || record.status === 'purchasing') {
      toSend.push(record);
    }
  }

  const outcome = await ctx.repos.plans.scheduleApplication({
    orgId: content.orgId,
    provider: content.provider,
    planId: content.planId,
    usageVersion: content.usageVersion,
    from: applicableStatuses,
    at,
    appliedBy,
    newMember,
  });
  if (!outcome.scheduled) throw await schedulingRefusal(ctx, content, decision, outcome.failed, newMember);

  try {
    await ctx.purchaseQueue.send(toSend.map(purchaseMessageOf));
  } catch (error) {
    // The records are the truth: the sweep sends what the queue did not take.
    if (!(error instanceof PurchaseQueueSendError)) throw error;
    ctx.onUnsentPurchases?.(error);
  }
  return outcome.plan;
}

async function storedPlan(ctx: ContextWith<'plans'>, content: PlanContent): Promise<StoredPlan> {
  const [stored] = await ctx.repos.plans.getPlans(content.orgId, content.provider, [content.planId]);
  if (!stored) throw new NotFoundError(`Commitment plan ${content.planId} not found`);
  return stored;
}
