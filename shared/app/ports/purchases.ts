import type { Provider } from '../../domain/engine';
import type { HandCompletion } from '../../domain/purchases/hand-completion';
import type {
  PurchaseClaim,
  PurchaseLimitPrice,
  PurchaseRecord,
} from '../../domain/purchases/purchase-record';

/** The port of purchase records; the marketplace and the queue have ports of their own beside it. */

/** What a purchase attempt learnt from the provider (or the operator), as recorded on its record. */
export type PurchaseOutcome =
  | {
      readonly status: 'completed';
      readonly providerIds: readonly string[];
      readonly upfrontCost: number;
      readonly recurringCost: number;
      readonly providerQuantity: number;
    }
  /** The provider refused (nothing bought), or an operator must buy it by hand (`manual`). */
  | { readonly status: 'failed' | 'manual'; readonly reason: string; readonly code: string };

/** A plan whose purchases are under way: what the sweep looks through. */
export interface PurchasingPlan {
  readonly planId: string;
  readonly orgId: string;
  readonly provider: Provider;
  readonly since: string;
}

/**
 * Purchase records (docs/purchases.md). Each state change is a conditional write on
 * the expected status; methods answer the record as stored after the change, or null when the
 * record was not in that status (someone else moved it first).
 */
export interface PurchaseRepository {
  /** Creates each record unless it exists; answers the records as stored (existing ones untouched). */
  createRecords(records: readonly PurchaseRecord[]): Promise<PurchaseRecord[]>;
  get(planId: string, lineItemId: string): Promise<PurchaseRecord | null>;
  /** The plan's records, in line item id order. */
  listByPlan(planId: string): Promise<PurchaseRecord[]>;
  /** The org's records, oldest first. */
  listByOrg(orgId: string): Promise<PurchaseRecord[]>;
  /** `queued`, or `purchasing` with a claim expired at `claim.claimedAt` -> `purchasing` under `claim`. */
  claim(record: PurchaseRecordRef, claim: PurchaseClaim): Promise<PurchaseRecord | null>;
  /**
   * Records what attempt `attemptId` learnt: `completed` from any attempt while `purchasing`
   * (the provider's answer for the client token is the truth), `failed` / `manual` only while
   * that attempt still holds the claim.
   */
  finish(
    record: PurchaseRecordRef,
    attemptId: string,
    outcome: PurchaseOutcome,
    at: string,
  ): Promise<PurchaseRecord | null>;
  /** `queued` with `attempts` unchanged -> `failed`: a guard rail refused it before any attempt bought. */
  refuse(
    record: PurchaseRecordRef & Pick<PurchaseRecord, 'attempts'>,
    reason: string,
    code: string,
    at: string,
  ): Promise<PurchaseRecord | null>;
  /** `failed` -> `queued` (same client token), with a new limit price when one is given. */
  requeue(
    record: PurchaseRecordRef,
    at: string,
    limitPrice?: PurchaseLimitPrice,
  ): Promise<PurchaseRecord | null>;
  /** `manual` -> `completed`, with the operator's reference and what they bought. */
  completeByHand(
    record: PurchaseRecordRef,
    completion: HandCompletion,
    at: string,
  ): Promise<PurchaseRecord | null>;
  /** Notes that the plan's purchases are under way (idempotent). */
  markPurchasing(plan: PurchasingPlan): Promise<void>;
  unmarkPurchasing(planId: string): Promise<void>;
  purchasingPlans(): Promise<PurchasingPlan[]>;
}

export type PurchaseRecordRef = Pick<PurchaseRecord, 'planId' | 'lineItemId'>;
