import { cloudProviders } from '../domain/cloud-providers';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors';
import type { Organization } from '../domain/orgs';
import {
  type HandCompletion,
  handCompletionOf,
  InvalidHandQuantity,
} from '../domain/purchases/hand-completion';
import type { PurchaseRecord } from '../domain/purchases/purchase-record';
import type { AppContext } from './ports';
import type { PurchaseQueue } from './ports/purchase-queue';
import { purchaseMessageOf } from './purchase-messages';
import { type ProcessorContext, settlePlan } from './purchase-processing';

/**
 * What operators do with purchases (bin/admin.ts; docs/purchases.md): list them, retry a failed
 * one (with the same client token: a retry never mints a new purchase), record the fulfilment of
 * one bought by hand, and cap what a plan may pay upfront.
 */

export async function listPurchases(
  ctx: AppContext,
  orgId: string,
  planId?: string,
): Promise<PurchaseRecord[]> {
  if (planId) {
    return (await ctx.repos.purchases.listByPlan(planId)).filter((record) => record.orgId === orgId);
  }
  return ctx.repos.purchases.listByOrg(orgId);
}

/** Moves a `failed` purchase back to `queued` and wakes the processor; any other status is a conflict. */
export async function retryPurchase(
  ctx: AppContext & { readonly purchaseQueue: PurchaseQueue },
  planId: string,
  lineItemId: string,
): Promise<PurchaseRecord> {
  const record = await existing(ctx, planId, lineItemId);
  if (record.status !== 'failed') {
    throw new ConflictError(
      `Purchase of line item ${lineItemId} is ${record.status}: only a failed purchase is retried`,
    );
  }
  const [plan] = await ctx.repos.plans.getPlans(record.orgId, record.provider, [planId]);
  const at = ctx.clock.now().toISOString();
  await ctx.repos.purchases.markPurchasing({
    planId,
    orgId: record.orgId,
    provider: record.provider,
    since: at,
  });
  const requeued = await ctx.repos.purchases.requeue(record, at);
  if (!requeued) throw new ConflictError(`Purchase of line item ${lineItemId} changed meanwhile; look again`);
  // The plan ended in review because of this line: it is being purchased again.
  if (plan) {
    await ctx.repos.plans.changeStatus(record.orgId, record.provider, planId, {
      from: ['needs_review'],
      to: 'in_progress',
      at,
    });
  }
  await ctx.purchaseQueue.send([purchaseMessageOf(requeued)]);
  return requeued;
}

/**
 * Records that an operator bought a `manual` line item, with their reference and the quantity
 * they bought in the offer's unit (`offerUnit`; the planned quantity when not given), owns the
 * commitment and recomputes the org's plans (`settlePlan`).
 */
export async function completePurchase(
  ctx: AppContext & Pick<ProcessorContext, 'catalog' | 'planComputation'>,
  planId: string,
  lineItemId: string,
  reference: string,
  quantity?: number,
): Promise<PurchaseRecord> {
  if (reference.trim() === '')
    throw new ValidationError('A reference is required', { reference: ['Required'] });
  const record = await existing(ctx, planId, lineItemId);
  if (record.status !== 'manual') {
    throw new ConflictError(
      `Purchase of line item ${lineItemId} is ${record.status}: only a purchase waiting for an operator is completed by hand`,
    );
  }
  const catalog = await ctx.catalog([record]);
  const offer = catalog.offerById(record.offerId);
  if (!offer) throw new ConflictError(`Offer ${record.offerId} of the purchase is not in the catalog`);
  let completion: HandCompletion;
  try {
    completion = handCompletionOf(record, offer, catalog, quantity ?? record.quantity, reference.trim());
  } catch (error) {
    if (!(error instanceof InvalidHandQuantity)) throw error;
    throw new ValidationError(error.message, { quantity: [error.message] });
  }
  const completed = await ctx.repos.purchases.completeByHand(
    record,
    completion,
    ctx.clock.now().toISOString(),
  );
  if (!completed)
    throw new ConflictError(`Purchase of line item ${lineItemId} changed meanwhile; look again`);
  await settlePlan(ctx, completed);
  return completed;
}

/**
 * Sets (or, with null, removes) the org's cap on what its purchases pay upfront over any 30 days,
 * and makes its plans stale: they are computed again within the new cap when next read.
 */
export async function setMaxUpfrontCost(
  ctx: AppContext,
  orgId: string,
  maxUpfrontCost: number | null,
): Promise<Organization> {
  if (maxUpfrontCost !== null && !(Number.isFinite(maxUpfrontCost) && maxUpfrontCost >= 0)) {
    throw new ValidationError('max_upfront_cost must be a number of dollars, 0 or more', {
      max_upfront_cost: ['Must be 0 or more'],
    });
  }
  const at = ctx.clock.now().toISOString();
  const org = await ctx.repos.orgUpdates.setMaxUpfrontCost(orgId, maxUpfrontCost, at);
  // Plans are chosen within the cap (docs/plan-engine.md, The upfront cap): the org's are stale now.
  await Promise.all(
    cloudProviders.map((provider) => ctx.repos.usage.raisePlanInputsVersion(orgId, provider, at)),
  );
  return org;
}

async function existing(ctx: AppContext, planId: string, lineItemId: string): Promise<PurchaseRecord> {
  const record = await ctx.repos.purchases.get(planId, lineItemId);
  if (!record) throw new NotFoundError(`No purchase of line item ${lineItemId} in plan ${planId}`);
  return record;
}
