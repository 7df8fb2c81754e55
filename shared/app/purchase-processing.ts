import type { Catalog } from '../domain/catalog/catalog';
import type { Offer } from '../domain/engine';
import { checkGuardRails, upfrontOverWindow } from '../domain/purchases/guard-rails';
import { commitmentOf } from '../domain/purchases/purchase-orders';
import {
  isSettled,
  type PurchaseRecord,
  planOutcome,
  purchasingStatuses,
  waitsForStart,
} from '../domain/purchases/purchase-record';
import type { AppContext, ContextWith, PlanComputation, PurchaseOutcome } from './ports';
import {
  type Marketplace,
  MarketplaceError,
  PurchaseOutcomeUnknown,
  type PurchaseRequest,
  type PurchaseResult,
  queuesPurchase,
} from './ports/marketplace';
import type { PurchaseMessage } from './ports/purchase-queue';
import type { CatalogPlace } from './stored-catalog';

/**
 * The purchase processor's use case (docs/purchases.md): one queue message names one line item's
 * purchase record; the record, not the message, says what to do. Messages may come twice, out of
 * order, or long after the fact: every step below is a conditional write or a repeatable one, so
 * running it again (after a crash anywhere) finishes the work without buying twice.
 */

/** How long an attempt holds a record: past it, the attempt is presumed dead and another resumes it. */
export const PURCHASE_CLAIM_SECONDS = 120;

/** The repositories the processor reads and writes. */
export type ProcessorRepository = 'commitments' | 'orgs' | 'plans' | 'purchases' | 'usage';

export interface ProcessorContext extends ContextWith<ProcessorRepository> {
  readonly marketplace: Marketplace;
  /**
   * The catalog of the regions of the purchases handled, their offers' (stored-catalog.ts,
   * purchasingCatalog): the prices the plans were priced with.
   */
  readonly catalog: (places: Iterable<CatalogPlace>) => Promise<Catalog>;
  /** Recomputes an org's plans once its purchases are owned (in this process, or by the plan-computation function). */
  readonly planComputation: PlanComputation;
}

export type ProcessedPurchase =
  /** No such record (the plan was never applied, or was deleted): nothing to do. */
  | { readonly outcome: 'unknown_record' }
  /**
   * The record's plan is not scheduled, or the record starts later and its provider cannot queue
   * the purchase: left queued (not claimed), to be sent again when it is (purchase-sweep.ts).
   */
  | { readonly outcome: 'waiting'; readonly reason: string }
  /** The record is where it ends for now (bought, refused, waiting for an operator). */
  | { readonly outcome: 'settled'; readonly record: PurchaseRecord };

/**
 * Another attempt holds the record, or the provider did not say whether it bought: the message
 * must come again later (its visibility timeout outlasts the claim).
 */
export class PurchaseNotFinished extends Error {
  static code = 'ERR_PURCHASE_NOT_FINISHED';
  readonly code = PurchaseNotFinished.code;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PurchaseNotFinished';
  }
}

export async function processPurchase(
  ctx: ProcessorContext,
  message: PurchaseMessage,
): Promise<ProcessedPurchase> {
  const found = await ctx.repos.purchases.get(message.planId, message.lineItemId);
  // Ownership comes from stored data: a message naming another org's record is not acted on.
  if (!found || found.orgId !== message.orgId) return { outcome: 'unknown_record' };
  let record = found;

  if (record.status === 'queued') {
    const notYet = await startToWaitFor(ctx, record);
    if (notYet) return notYet;
    const decision = await guardRails(ctx, record);
    if (decision.decision === 'wait') return { outcome: 'waiting', reason: decision.reason };
    if (decision.decision === 'refuse') {
      const refused = await ctx.repos.purchases.refuse(record, decision.reason, decision.code, now(ctx));
      if (refused) {
        await settlePlan(ctx, refused);
        return { outcome: 'settled', record: refused };
      }
      // Claimed or changed meanwhile: go on from what is stored now.
      record = await reread(ctx, record);
    }
  }

  if (record.status === 'queued' || record.status === 'purchasing') {
    // Read again after a refusal lost its race: a queued record is never bought before its start.
    const notYet = record.status === 'queued' ? await startToWaitFor(ctx, record) : null;
    if (notYet) return notYet;
    record = await buy(ctx, record);
  }
  await settlePlan(ctx, record);
  return { outcome: 'settled', record };
}

/**
 * A delayed record (docs/purchases.md, Delayed starts) whose provider cannot queue its purchase
 * waits, unclaimed, until its start; one whose offer is gone goes on to the guard rails, which
 * refuse it.
 */
async function startToWaitFor(
  ctx: ProcessorContext,
  record: PurchaseRecord,
): Promise<ProcessedPurchase | null> {
  if (record.startsAt === null) return null;
  const offer = (await ctx.catalog([record])).offerById(record.offerId);
  if (!offer || !waitsForStart(record, queuesPurchase(offer), ctx.clock.now().getTime())) return null;
  return { outcome: 'waiting', reason: `purchase ${record.id} starts at ${record.startsAt}` };
}

/** Guard rails run only while no attempt has reached the provider: a resumed attempt must learn what the first one did. */
async function guardRails(ctx: ProcessorContext, record: PurchaseRecord) {
  const [[plan], org, records, orgRecords, catalog] = await Promise.all([
    ctx.repos.plans.getPlans(record.orgId, record.provider, [record.planId]),
    ctx.repos.orgs.get(record.orgId),
    ctx.repos.purchases.listByPlan(record.planId),
    ctx.repos.purchases.listByOrg(record.orgId),
    ctx.catalog([record]),
  ]);
  const planUpfront = records.reduce((total, each) => total + each.plannedUpfrontCost, 0);
  return checkGuardRails({
    record,
    plan: plan ? { orgId: plan.orgId, status: plan.plan.status } : null,
    policy: { maxUpfrontCost: org?.maxUpfrontCost ?? null },
    // The cap bounds the org over any 30 days: checked again here, as other plans may have bought since the apply.
    upfrontOverWindow: upfrontOverWindow(orgRecords, record.planId, planUpfront, ctx.clock.now()),
    offer: catalog.offerById(record.offerId),
  });
}

/** Claims the record, asks the provider with the line item's client token, records the answer. */
async function buy(ctx: ProcessorContext, record: PurchaseRecord): Promise<PurchaseRecord> {
  const claimedAt = ctx.clock.now();
  if (
    record.status === 'purchasing' &&
    record.claim &&
    Date.parse(record.claim.expiresAt) >= claimedAt.getTime()
  ) {
    throw new PurchaseNotFinished(
      `purchase ${record.id} is being bought by attempt ${record.claim.attemptId}`,
    );
  }
  const attemptId = ctx.ids.uuid();
  const claimed = await ctx.repos.purchases.claim(record, {
    attemptId,
    claimedAt: claimedAt.toISOString(),
    expiresAt: new Date(claimedAt.getTime() + PURCHASE_CLAIM_SECONDS * 1000).toISOString(),
  });
  if (!claimed) {
    const current = await reread(ctx, record);
    if (current.status === 'queued' || current.status === 'purchasing') {
      throw new PurchaseNotFinished(`purchase ${record.id} was claimed by another attempt`);
    }
    return current;
  }
  await ctx.repos.plans.changeStatus(claimed.orgId, claimed.provider, claimed.planId, {
    from: ['scheduled'],
    to: 'in_progress',
    at: claimed.updatedAt,
  });

  const offer = (await ctx.catalog([claimed])).offerById(claimed.offerId);
  if (!offer)
    throw new PurchaseNotFinished(`offer ${claimed.offerId} of purchase ${claimed.id} is not in the catalog`);
  const outcome = await askProvider(ctx, purchaseRequest(claimed, offer));
  const finished = await ctx.repos.purchases.finish(claimed, attemptId, outcome, now(ctx));
  return finished ?? reread(ctx, claimed);
}

async function askProvider(ctx: ProcessorContext, request: PurchaseRequest): Promise<PurchaseOutcome> {
  let result: PurchaseResult;
  try {
    result = await ctx.marketplace.purchase(request);
  } catch (error) {
    // Only a refusal made before anything was bought may be recorded as failed.
    if (error instanceof MarketplaceError && !(error instanceof PurchaseOutcomeUnknown)) {
      return { status: 'failed', reason: error.message, code: error.code };
    }
    throw new PurchaseNotFinished(
      `the provider did not say whether it bought line item ${request.lineItemId}`,
      {
        cause: error,
      },
    );
  }
  switch (result.status) {
    case 'completed':
      return result;
    case 'manual':
      return { status: 'manual', reason: result.reason, code: 'manual_fulfilment' };
    case 'failed':
      return { status: 'failed', reason: result.message, code: result.providerCode };
  }
}

/**
 * A delayed record's start, sent where the provider queues purchases. Judged against the first
 * claim, not the clock: every attempt of one line item then sends the same request.
 */
function queuedStart(record: PurchaseRecord, offer: Offer): { startsAt?: string } {
  const since = Date.parse(record.firstClaimedAt ?? record.updatedAt);
  return record.startsAt !== null && queuesPurchase(offer) && Date.parse(record.startsAt) > since
    ? { startsAt: record.startsAt }
    : {};
}

function purchaseRequest(record: PurchaseRecord, offer: Offer): PurchaseRequest {
  return {
    orgId: record.orgId,
    planId: record.planId,
    lineItemId: record.lineItemId,
    provider: record.provider,
    accountId: record.accountId,
    offer,
    quantity: record.quantity,
    ...(record.instanceType ? { instanceType: record.instanceType } : {}),
    limitPrice: record.limitPrice,
    clientToken: record.clientToken,
    ...queuedStart(record, offer),
    // A resumed attempt tells the provider adapter since when an earlier one may have bought.
    ...(record.attempts > 1 && record.firstClaimedAt ? { earlierAttemptsSince: record.firstClaimedAt } : {}),
  };
}

/**
 * Once none of the plan's purchases is left to run, writes the bought commitments (each under
 * its purchase record's id, named by plan and line item, so writing it again owns nothing
 * twice), raises the provider's plan inputs version, recomputes the org's plans around what was
 * bought (as an import does) and ends the plan `completed` or `needs_review`. Every step repeats
 * harmlessly, so any redelivered message of the plan finishes what a crash left.
 */
export async function settlePlan(
  ctx: ContextWith<ProcessorRepository> & Pick<ProcessorContext, 'catalog' | 'planComputation'>,
  record: PurchaseRecord,
): Promise<void> {
  if (!isSettled(record.status)) return;
  const records = await ctx.repos.purchases.listByPlan(record.planId);
  const outcome = planOutcome(records);
  if (!outcome) return;
  const [plan] = await ctx.repos.plans.getPlans(record.orgId, record.provider, [record.planId]);
  if (plan && purchasingStatuses.includes(plan.plan.status)) {
    const completed = records.filter((each) => each.status === 'completed');
    if (completed.length > 0) {
      const catalog = await ctx.catalog(completed);
      for (const each of completed) {
        const offer = catalog.offerById(each.offerId);
        if (offer) await ctx.repos.commitments.putCommitment(each.orgId, commitmentOf(each, offer));
      }
      await ctx.repos.usage.raisePlanInputsVersion(record.orgId, record.provider, now(ctx));
      // Before the status change, so a redelivery after a crash recomputes again; the plan, no
      // longer `new`, is kept by the computation that supersedes its siblings.
      await ctx.planComputation(record.orgId, record.provider);
    }
    await ctx.repos.plans.changeStatus(record.orgId, record.provider, record.planId, {
      from: purchasingStatuses,
      to: outcome,
      at: now(ctx),
    });
  }
  await ctx.repos.purchases.unmarkPurchasing(record.planId);
}

async function reread(ctx: ProcessorContext, record: PurchaseRecord): Promise<PurchaseRecord> {
  const current = await ctx.repos.purchases.get(record.planId, record.lineItemId);
  if (!current) throw new PurchaseNotFinished(`purchase ${record.id} disappeared`);
  return current;
}

function now(ctx: Pick<AppContext, 'clock'>): string {
  return ctx.clock.now().toISOString();
}
