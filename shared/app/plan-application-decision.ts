import type { PlanStatus } from '../domain/engine';
import { ConflictError, NotFoundError, ReasonedConflictError } from '../domain/errors';
import type { Membership } from '../domain/orgs';
import { type AppliedComputation, isOutdated } from '../domain/plans/applied-computation';
import { type StoredPlan, usageVersionOf } from '../domain/plans/plan-set';
import { exceedsUpfrontCap, upfrontCapReason, upfrontOverWindow } from '../domain/purchases/guard-rails';
import { purchaseRecordsOf, UnpurchasableLineItem } from '../domain/purchases/purchase-orders';
import {
  applicableStatuses,
  type PurchaseRecord,
  selectedLineItems,
} from '../domain/purchases/purchase-record';
import type { ApplyContext } from './apply-context';
import type { PlanContent, SchedulingCondition } from './ports';
import { purchaseClientToken } from './ports/marketplace';

/**
 * What applying a plan decides before it writes anything (docs/purchases.md, Pricing the records): every
 * refusal is a 409 raised here, so a refused apply (#8) or purchase (#13) leaves nothing written.
 */
export interface ApplicationDecision {
  /** The purchase records to create, priced at the catalog now. */
  readonly records: readonly PurchaseRecord[];
  readonly at: string;
  readonly appliedBy: string;
  /** A re-apply after a review takes the computation over from the user who applied it before. */
  readonly takeOverFrom: string | undefined;
}

export async function decideApplication(
  ctx: ApplyContext,
  content: PlanContent,
  stored: StoredPlan,
  appliedBy: string,
): Promise<ApplicationDecision> {
  checkApplicable(stored, content);
  const { orgId, provider, planId } = content;
  const [usageState, held, org, orgRecords, catalog] = await Promise.all([
    ctx.repos.usage.usageState(orgId, provider),
    ctx.repos.plans.appliedComputation(orgId, provider, stored.usageVersion),
    ctx.repos.orgs.get(orgId),
    ctx.repos.purchases.listByOrg(orgId),
    // The regions of the lines bought, their offers': the records' limit prices are read there.
    ctx.catalog(
      selectedLineItems(content.lineItems).map((item) => ({
        provider,
        region: item.offer.region,
        offerId: item.offer_id,
      })),
    ),
  ]);
  const currentVersion = usageVersionOf(usageState);
  if (isOutdated(stored.plan.status, stored.usageVersion, currentVersion)) {
    const successor = await successorOf(ctx, stored, currentVersion);
    throw new ReasonedConflictError(
      'plan_outdated',
      `Commitment plan ${planId} was computed before the organization's commitments or usage last changed: ${
        successor
          ? `apply its successor ${successor}`
          : 'list the plans to compute its successor, and apply that'
      }`,
      successor,
    );
  }
  if (held && held.planId !== planId) throw siblingApplied(planId, held.planId);
  const reapplying = held !== null && stored.plan.status === 'needs_review';
  if (held && held.appliedBy !== appliedBy && !reapplying) throw beingApplied(planId, held.appliedBy);
  checkSomethingToBuy(content);

  const at = ctx.clock.now().toISOString();
  let records: PurchaseRecord[];
  try {
    records = purchaseRecordsOf(content, catalog, purchaseClientToken, at);
  } catch (error) {
    if (error instanceof UnpurchasableLineItem) {
      throw new ConflictError(`${error.message}; the plan cannot be applied as it is`);
    }
    throw error;
  }
  const policy = { maxUpfrontCost: org?.maxUpfrontCost ?? null };
  const planUpfront = records.reduce((total, record) => total + record.plannedUpfrontCost, 0);
  const upfront = upfrontOverWindow(orgRecords, planId, planUpfront, ctx.clock.now());
  if (policy.maxUpfrontCost !== null && exceedsUpfrontCap(upfront, policy)) {
    throw new ReasonedConflictError(
      'max_upfront_cost_exceeded',
      `Commitment plan ${planId} cannot be applied: ${upfrontCapReason(upfront, policy.maxUpfrontCost)}`,
    );
  }
  return { records, at, appliedBy, takeOverFrom: reapplying ? held?.appliedBy : undefined };
}

/**
 * The first write of an apply: the plan's computation becomes this plan's, as this caller's. Of
 * two siblings applied at once, one holds it and the other is refused before writing anything
 * else; of two callers applying the same plan as different users at once, one. A retry by the
 * same caller goes on (a call that stopped after the claim is completed by its retry).
 */
export async function claimComputation(
  ctx: ApplyContext,
  content: PlanContent,
  decision: ApplicationDecision,
): Promise<void> {
  const { orgId, provider, planId } = content;
  const holder = await ctx.repos.plans.claimComputation(
    orgId,
    provider,
    content.usageVersion,
    { planId, appliedBy: decision.appliedBy, appliedAt: decision.at },
    decision.takeOverFrom,
  );
  const refusal = holderRefusal(planId, holder, decision.appliedBy);
  if (refusal) throw refusal;
}

/**
 * The 409 of an apply whose scheduling transaction was cancelled (`failed`: the conditions that
 * failed), read from what holds now: the computation's claim first, then the plan's status, then
 * the e-mail that became a member meanwhile. Nothing was written by the transaction.
 */
export async function schedulingRefusal(
  ctx: ApplyContext,
  content: PlanContent,
  decision: ApplicationDecision,
  failed: readonly SchedulingCondition[],
  newMember: Membership | null,
): Promise<Error> {
  const { orgId, provider, planId } = content;
  if (failed.includes('computation_claim')) {
    const holder = await ctx.repos.plans.appliedComputation(orgId, provider, content.usageVersion);
    const refusal = holder && holderRefusal(planId, holder, decision.appliedBy);
    if (refusal) return refusal;
  }
  if (failed.includes('plan_status')) {
    const [stored] = await ctx.repos.plans.getPlans(orgId, provider, [planId]);
    if (!stored) return new NotFoundError(`Commitment plan ${planId} not found`);
    if (!applicableStatuses.includes(stored.plan.status)) return notApplicable(planId, stored.plan.status);
  }
  if (failed.includes('not_a_member') && newMember) {
    return new ConflictError(
      `${newMember.email} became a member of organization ${orgId} while the plan was being purchased; send the request again`,
    );
  }
  return new ConflictError(
    `Commitment plan ${planId} changed while it was being applied; send the request again`,
  );
}

function holderRefusal(planId: string, holder: AppliedComputation, appliedBy: string): ConflictError | null {
  if (holder.planId !== planId) return siblingApplied(planId, holder.planId);
  if (holder.appliedBy !== appliedBy) return beingApplied(planId, holder.appliedBy);
  return null;
}

export function notApplicable(planId: string, status: PlanStatus): ConflictError {
  return new ConflictError(
    `Commitment plan ${planId} is ${status}: only a plan that is ${applicableStatuses.join(', ')} can be applied`,
  );
}

function checkApplicable(stored: StoredPlan, content: PlanContent): void {
  if (!applicableStatuses.includes(stored.plan.status))
    throw notApplicable(content.planId, stored.plan.status);
}

/** After the outdated check: an outdated plan with nothing to buy is refused as outdated, naming its successor. */
function checkSomethingToBuy(content: PlanContent): void {
  if (selectedLineItems(content.lineItems).length === 0) {
    throw new ConflictError(
      `Commitment plan ${content.planId} has no selected line item: there is nothing to buy`,
    );
  }
}

/** The plan of the same profile in the plan set computed from the current inputs; null until computed. */
async function successorOf(
  ctx: ApplyContext,
  stored: StoredPlan,
  currentVersion: number,
): Promise<string | null> {
  let planSet = await ctx.repos.plans.planSet(stored.orgId, stored.provider);
  if (planSet?.computed?.usageVersion !== currentVersion && ctx.planComputation) {
    // Not computed yet (the change was just made): compute it now, as a read of the plans would.
    // Best effort: a computation that fails leaves the successor unnamed, the refusal stands.
    planSet = await ctx
      .planComputation(stored.orgId, stored.provider)
      .then((refresh) => refresh.planSet)
      .catch(() => planSet);
  }
  const computed = planSet?.computed;
  if (!computed || computed.usageVersion !== currentVersion) return null;
  const plans = await ctx.repos.plans.getPlans(stored.orgId, stored.provider, computed.planIds);
  return plans.find((each) => each.plan.name === stored.plan.name)?.plan.id ?? null;
}

function siblingApplied(planId: string, appliedPlanId: string): ReasonedConflictError {
  return new ReasonedConflictError(
    'plan_sibling_applied',
    `Commitment plan ${planId} cannot be applied: plan ${appliedPlanId}, computed from the same usage and commitments, was applied`,
  );
}

function beingApplied(planId: string, appliedBy: string): ConflictError {
  return new ConflictError(`Commitment plan ${planId} is being applied as ${appliedBy}`);
}
