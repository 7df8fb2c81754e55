import { deterministicUuid } from '../deterministic-id';
import type { LineItem, PlanStatus, Provider } from '../engine';

/**
 * One line item's purchase (docs/purchases.md): the record is the truth of what was asked and what
 * happened; queue messages only wake the processor. Its life:
 *
 *   queued --claim--> purchasing --bought--> completed
 *      ^                  |  \--refused--> failed --operator retry--> queued
 *      |                  \--by hand--> manual --operator completes--> completed
 *      \-- a claim whose attempt crashed expires and is claimed again (same client token)
 *
 * A completed record is never bought again; every attempt of a line item carries the same client
 * token, so a provider that bought already answers that purchase instead of buying twice.
 */
export type PurchaseStatus = 'queued' | 'purchasing' | 'completed' | 'failed' | 'manual';

export const purchaseStatuses: readonly PurchaseStatus[] = [
  'queued',
  'purchasing',
  'completed',
  'failed',
  'manual',
];

/** The most one unit may cost: the catalog's price when the plan was applied. */
export interface PurchaseLimitPrice {
  readonly upfront: number;
  /** Upfront spread over the term plus the recurring charge, per unit-hour. */
  readonly hourly: number;
}

/** A purchase attempt holding the record: only it may record an outcome until it expires. */
export interface PurchaseClaim {
  readonly attemptId: string;
  readonly claimedAt: string;
  readonly expiresAt: string;
}

export interface PurchaseRecord {
  /** Name-based: the same plan and line item always name the same record. */
  readonly id: string;
  readonly orgId: string;
  readonly planId: string;
  readonly lineItemId: string;
  readonly provider: Provider;
  /** The provider account that buys. */
  readonly accountId: string;
  readonly offerId: string;
  readonly contractType: string;
  readonly region: string;
  /** In the engine's units: instances, normalized units (size-flexible), or $/h of commitment. */
  readonly quantity: number;
  /** The size bought for a size-flexible reservation; null otherwise. */
  readonly instanceType: string | null;
  readonly limitPrice: PurchaseLimitPrice;
  /**
   * When the commitment starts, for a renewal (the line item's startsAt: docs/purchases.md,
   * Delayed starts); null: when bought. A provider that queues purchases is asked to start it
   * then; otherwise the processor does not buy before it.
   */
  readonly startsAt: string | null;
  /** The token every attempt of this line item sends to the provider. */
  readonly clientToken: string;
  /** What the plan expects to pay: one-off total, and per hour. */
  readonly plannedUpfrontCost: number;
  readonly plannedRecurringCost: number;
  readonly status: PurchaseStatus;
  /** Claims made so far (each redelivery or retry that reached the provider counts one). */
  readonly attempts: number;
  readonly claim: PurchaseClaim | null;
  /** When the first attempt claimed the record: a provider purchase, if any, is after it. */
  readonly firstClaimedAt: string | null;
  readonly providerIds: readonly string[];
  /** What the provider charged: one-off total and per hour; null until completed. */
  readonly upfrontCost: number | null;
  readonly recurringCost: number | null;
  /** What was bought in the provider's units (instances, or $/h). */
  readonly providerQuantity: number | null;
  /** Why it failed, or why it waits for an operator. */
  readonly error: string | null;
  readonly errorCode: string | null;
  /** The operator's reference of a purchase made by hand. */
  readonly reference: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt: string | null;
}

export function purchaseRecordId(planId: string, lineItemId: string): string {
  return deterministicUuid('purchase-record', planId, lineItemId);
}

/**
 * Whether the record must wait for its start before it is bought: it starts later than `nowMs` and
 * its provider cannot queue the purchase (`queues`). Never buying such a line early is this check.
 */
export function waitsForStart(
  record: Pick<PurchaseRecord, 'startsAt'>,
  queues: boolean,
  nowMs: number,
): boolean {
  return record.startsAt !== null && !queues && Date.parse(record.startsAt) > nowMs;
}

/** Statuses in which nothing more happens without an operator. */
export function isSettled(status: PurchaseStatus): boolean {
  return status === 'completed' || status === 'failed';
}

/** The selected line items of a plan: what applying it buys. */
export function selectedLineItems(lineItems: readonly LineItem[]): LineItem[] {
  return lineItems.filter(
    (item) => item.is_selected && (item.selected_quantity > 0 || item.selected_commitment > 0),
  );
}

/** Plan statuses from which a plan may be applied (docs/purchases.md); any other is a 409. */
export const applicableStatuses: readonly PlanStatus[] = ['new', 'reviewed', 'needs_review'];

/** Plan statuses in which the processor may buy the plan's line items. */
export const purchasingStatuses: readonly PlanStatus[] = ['scheduled', 'in_progress'];

/**
 * The plan's status once its purchases are where `records` say: `completed` when every one
 * completed, `needs_review` when none is left to run and one failed; null while any is queued,
 * being bought, or waits for an operator.
 */
export function planOutcome(records: readonly Pick<PurchaseRecord, 'status'>[]): PlanStatus | null {
  if (records.length === 0) return null;
  if (records.some((record) => !isSettled(record.status))) return null;
  return records.every((record) => record.status === 'completed') ? 'completed' : 'needs_review';
}
