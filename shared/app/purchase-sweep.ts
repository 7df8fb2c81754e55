import { type PurchaseRecord, planOutcome, purchasingStatuses } from '../domain/purchases/purchase-record';
import type { ContextWith } from './ports';
import { type PurchaseQueue, PurchaseQueueSendError } from './ports/purchase-queue';
import { purchaseMessageOf } from './purchase-messages';

/**
 * The sweep (docs/purchases.md): the purchase records are the truth and the queue only wakes the
 * processor, so a message lost between writing a record and sending it (or dropped after its
 * last receive) would leave a purchase waiting forever. Run on a schedule, the sweep sends again
 * the message of every record that should be moving and is not: queued for longer than
 * `quietSeconds` (and due: its start, if any, has come), or claimed by an attempt whose claim expired. Duplicates cost nothing: the
 * processor claims each record with a conditional write.
 */

/** A record this long without a change is presumed to have lost its message. */
export const SWEEP_QUIET_SECONDS = 60;

/** A plan marked as purchasing this long while not scheduled comes from an apply that failed: its marker goes. */
const STALE_MARKER_SECONDS = 600;

export interface SweepResult {
  readonly plans: number;
  readonly resent: number;
  /** Messages the queue did not take this time (the next sweep tries again). */
  readonly unsent: number;
}

export async function sweepPurchases(
  ctx: ContextWith<'plans' | 'purchases'> & { readonly purchaseQueue: PurchaseQueue },
  quietSeconds = SWEEP_QUIET_SECONDS,
): Promise<SweepResult> {
  const now = ctx.clock.now().getTime();
  const quietBefore = now - quietSeconds * 1000;
  const plans = await ctx.repos.purchases.purchasingPlans();
  let resent = 0;
  let unsent = 0;
  for (const marker of plans) {
    const [plan] = await ctx.repos.plans.getPlans(marker.orgId, marker.provider, [marker.planId]);
    if (!plan || !purchasingStatuses.includes(plan.plan.status)) {
      const settled = plan && (plan.plan.status === 'completed' || plan.plan.status === 'needs_review');
      if (!plan || settled || Date.parse(marker.since) < now - STALE_MARKER_SECONDS * 1000) {
        await ctx.repos.purchases.unmarkPurchasing(marker.planId);
      }
      continue;
    }
    const records = await ctx.repos.purchases.listByPlan(marker.planId);
    const stuck = records.filter((record) => isStuck(record, now, quietBefore));
    // A plan whose records all ended before its status did (a crash in between) is finished by
    // waking the processor on any one of them.
    const toWake = planOutcome(records) !== null ? records.slice(0, 1) : stuck;
    if (toWake.length === 0) continue;
    try {
      // A fresh deduplication id: the first message of the same state may have been taken and
      // lost, and the queue would drop a repeat of its id for five minutes.
      const sweptAt = new Date(now).toISOString();
      await ctx.purchaseQueue.send(
        toWake.map((record) => ({
          ...purchaseMessageOf(record),
          revision: `${record.updatedAt}~swept@${sweptAt}`,
        })),
      );
      resent += toWake.length;
    } catch (error) {
      if (!(error instanceof PurchaseQueueSendError)) throw error;
      unsent += error.unsent.length;
      resent += toWake.length - error.unsent.length;
    }
  }
  return { plans: plans.length, resent, unsent };
}

/**
 * Whether a purchase should be moving and is not: queued since before `quietBefore`, or held by
 * an attempt whose claim expired (that attempt died).
 */
export function isStuck(record: PurchaseRecord, now: number, quietBefore: number): boolean {
  return (
    (record.status === 'queued' && Date.parse(record.updatedAt) < quietBefore && isDue(record, now)) ||
    (record.status === 'purchasing' && record.claim !== null && Date.parse(record.claim.expiresAt) < now)
  );
}

/**
 * A queued record is due once its start has come (or it has none). SQS FIFO queues delay no single
 * message, so the processor acknowledges a record that must wait for its start and the sweep is
 * what sends it again when due (docs/purchase-queue.md). Until then it is not stuck; the sweep
 * does not ask the catalog whether the provider queues purchases, so one that could be queued but
 * whose message was lost is bought when due, and then not queued but at once.
 */
function isDue(record: PurchaseRecord, now: number): boolean {
  return record.startsAt === null || Date.parse(record.startsAt) <= now;
}

/** Every purchase that is stuck now (operators' view; what the next sweep sends again). */
export async function stuckPurchases(
  ctx: ContextWith<'purchases'>,
  quietSeconds = SWEEP_QUIET_SECONDS,
): Promise<PurchaseRecord[]> {
  const now = ctx.clock.now().getTime();
  const stuck: PurchaseRecord[] = [];
  for (const marker of await ctx.repos.purchases.purchasingPlans()) {
    const records = await ctx.repos.purchases.listByPlan(marker.planId);
    stuck.push(...records.filter((record) => isStuck(record, now, now - quietSeconds * 1000)));
  }
  return stuck;
}
