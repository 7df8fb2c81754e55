import { purchaseClientToken } from '../cloud/marketplace/marketplace';
import type { Catalog } from '../domain/catalog/catalog';
import type { CommitmentPlan, PlanStatus, PurchasePlan, RecommendedPurchasePlan } from '../domain/engine';
import { ConflictError, ForbiddenError, InsufficientScopeError, NotFoundError } from '../domain/errors';
import { normalizeEmail } from '../domain/orgs';
import { hasScope, roleMayApply } from '../domain/permissions';
import type { StoredPlan } from '../domain/plans/plan-set';
import type { Principal } from '../domain/principal';
import { flaggedActionOf } from '../domain/purchases/flagged-actions';
import {
  type PurchaseCatalog,
  purchaseRecordsOf,
  UnpurchasableLineItem,
} from '../domain/purchases/purchase-orders';
import {
  applicableStatuses,
  type PurchaseRecord,
  selectedLineItems,
} from '../domain/purchases/purchase-record';
import { type PurchaseQueue, PurchaseQueueSendError } from '../queue/purchase-queue';
import { loadOrgFor } from './org-access';
import { loadPlanFor } from './plan-access';
import type { ContextWith, PlanContent } from './ports';
import { purchaseMessageOf } from './purchase-messages';

/**
 * Applying a plan (#8) and purchasing one for a user (#13), DESIGN §9: the plan moves to
 * `scheduled` with one purchase record per selected line item, and one queue message per record
 * wakes the processor. Records are written before the plan is scheduled and before any message:
 * a request that stops half-way leaves records of an unscheduled plan, which nothing buys and
 * which its retry completes; a lost message is sent again by the sweep.
 */

export const APPLY_SCOPE = 'plans:apply';

/** The repositories applying and purchasing use. */
export type ApplyRepository = 'memberships' | 'orgs' | 'plans' | 'purchases' | 'users';

export interface ApplyContext extends ContextWith<ApplyRepository> {
  readonly purchaseQueue: PurchaseQueue;
  readonly catalog: () => Promise<Catalog>;
  /** Told about messages the queue did not take (the sweep sends them again). */
  readonly onUnsentPurchases?: (error: PurchaseQueueSendError) => void;
}

/** The v2 purchase plan with where its purchases are (#13's answer). */
export interface PurchasePlanState {
  readonly plan: PurchasePlan;
}

/** Spec #8: applies the plan as the calling user. */
export async function applyPlan(
  ctx: ApplyContext,
  principal: Principal,
  orgId: string,
  planId: string,
): Promise<CommitmentPlan> {
  requireApplyScope(principal);
  if (principal.kind !== 'user') {
    throw new ForbiddenError(
      'A plan is applied by a user: partners name the user with POST /v2/org/{org_id}/partners/purchase-plans-v2/{plan_id}/purchase',
    );
  }
  await loadOrgFor(ctx, principal, orgId, 'apply');
  const content = await loadPlanFor(ctx, principal, orgId, planId);
  const applied = await applyAs(ctx, content, principal.userId);
  return applied.plan;
}

/**
 * Spec #13: the partner (or the org's admin) has the plan purchased as the user named by
 * `email`, who becomes a member (role `user`) if not one yet; a member whose role may not apply
 * plans is refused. Checks the plan can be applied before anything is written.
 */
export async function purchasePlanFor(
  ctx: ApplyContext,
  principal: Principal,
  orgId: string,
  planId: string,
  email: string,
): Promise<PurchasePlan> {
  requireApplyScope(principal);
  await loadOrgFor(ctx, principal, orgId, 'manage');
  const content = await loadPlanFor(ctx, principal, orgId, planId);
  const purchasePlan = await ctx.repos.plans.purchasePlan(content.planId);
  if (!purchasePlan) throw new NotFoundError(`Purchase plan ${planId} not found`);
  const stored = await storedPlan(ctx, content);
  checkApplicable(stored, content);

  const userEmail = normalizeEmail(email);
  const membership = await ctx.repos.memberships.get(orgId, userEmail);
  if (membership && !roleMayApply(membership.role)) {
    throw new ForbiddenError(
      `${userEmail} is a ${membership.role} of organization ${orgId}, who may not apply plans`,
    );
  }
  if (!membership) {
    const at = ctx.clock.now().toISOString();
    await ctx.repos.users.ensure({ email: userEmail, name: null, createdAt: at });
    await ctx.repos.memberships.put({ orgId, email: userEmail, role: 'user', createdAt: at, updatedAt: at });
  }
  const applied = await applyAs(ctx, content, userEmail);
  const records = await ctx.repos.purchases.listByPlan(content.planId);
  return purchasePlanView(purchasePlan, applied, records);
}

/** The v2 purchase plan of an applied plan: its status, last change and one flagged action per purchase. */
export function purchasePlanView(
  purchasePlan: RecommendedPurchasePlan,
  stored: StoredPlan,
  records: readonly PurchaseRecord[],
): PurchasePlan {
  const {
    covered_ondemand_cost: _covered,
    before_ondemand_cost: _beforeOndemand,
    before_reserved_cost: _beforeReserved,
    amortized_cost: _amortized,
    recurring_cost: _recurring,
    upfront_cost: _upfront,
    before_cost: _before,
    after_cost: _after,
    total_cost: _total,
    savings: _savings,
    fee: _fee,
    commitment_coverage: _coverage,
    minimum_commitment_cost: _minimum,
    breakeven_hours: _breakeven,
    total_savings: _totalSavings,
    monthly_savings: _monthlySavings,
    total_monthly_before_cost: _monthlyBefore,
    max_term: _maxTerm,
    aggregate_metrics: _metrics,
    ...plan
  } = purchasePlan;
  const appliedBy = stored.application?.appliedBy ?? '';
  return {
    ...plan,
    status: stored.plan.status,
    last_modified: stored.application?.lastModified ?? plan.last_modified,
    flagged_actions: records.map((record) =>
      flaggedActionOf(record, {
        id: stored.plan.id,
        name: stored.plan.name,
        status: stored.plan.status,
        isDefault: plan.is_default,
        appliedBy,
      }),
    ),
  };
}

async function applyAs(ctx: ApplyContext, content: PlanContent, userId: string): Promise<StoredPlan> {
  const stored = await storedPlan(ctx, content);
  checkApplicable(stored, content);
  const at = ctx.clock.now().toISOString();
  const catalog = await ctx.catalog();
  let records: PurchaseRecord[];
  try {
    records = purchaseRecordsOf(content, purchaseCatalogOf(catalog), purchaseClientToken, at);
  } catch (error) {
    if (error instanceof UnpurchasableLineItem) {
      throw new ConflictError(`${error.message}; the plan cannot be applied as it is`);
    }
    throw error;
  }

  await ctx.repos.purchases.markPurchasing({
    planId: content.planId,
    orgId: content.orgId,
    provider: content.provider,
    since: at,
  });
  const created = await ctx.repos.purchases.createRecords(records);
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

  const scheduled = await ctx.repos.plans.changeStatus(content.orgId, content.provider, content.planId, {
    from: applicableStatuses,
    to: 'scheduled',
    at,
    appliedBy: userId,
  });
  if (!scheduled) throw notApplicable(content.planId, (await storedPlan(ctx, content)).plan.status);

  try {
    await ctx.purchaseQueue.send(toSend.map(purchaseMessageOf));
  } catch (error) {
    // The records are the truth: the sweep sends what the queue did not take.
    if (!(error instanceof PurchaseQueueSendError)) throw error;
    ctx.onUnsentPurchases?.(error);
  }
  return scheduled;
}

async function storedPlan(ctx: ContextWith<'plans'>, content: PlanContent): Promise<StoredPlan> {
  const [stored] = await ctx.repos.plans.getPlans(content.orgId, content.provider, [content.planId]);
  if (!stored) throw new NotFoundError(`Commitment plan ${content.planId} not found`);
  return stored;
}

function checkApplicable(stored: StoredPlan, content: PlanContent): void {
  if (!applicableStatuses.includes(stored.plan.status))
    throw notApplicable(content.planId, stored.plan.status);
  if (selectedLineItems(content.lineItems).length === 0) {
    throw new ConflictError(
      `Commitment plan ${content.planId} has no selected line item: there is nothing to buy`,
    );
  }
}

function notApplicable(planId: string, status: PlanStatus): ConflictError {
  return new ConflictError(
    `Commitment plan ${planId} is ${status}: only a plan that is ${applicableStatuses.join(', ')} can be applied`,
  );
}

function requireApplyScope(principal: Principal): void {
  if (!hasScope(principal, APPLY_SCOPE)) {
    throw new InsufficientScopeError(APPLY_SCOPE);
  }
}

/** The catalog as purchases read it: offers by id, and the sizes a family reservation can be bought in. */
export function purchaseCatalogOf(catalog: Catalog): PurchaseCatalog {
  return {
    offerById: (id) => catalog.offerById(id),
    sizes: (provider) =>
      catalog.pricedInstances(provider).map((instance) => ({
        instanceType: instance.instanceType,
        family: instance.family,
        region: instance.region,
        units: instance.units,
      })),
  };
}
