import { randomUUID } from 'node:crypto';
import { purchaseClientToken } from '../../shared/cloud/marketplace/marketplace';
import { type PurchaseRecord, purchaseRecordId } from '../../shared/domain/purchases/purchase-record';

/** A queued purchase record of a fresh plan (override any field). */
export function aPurchaseRecord(overrides: Partial<PurchaseRecord> = {}): PurchaseRecord {
  const planId = overrides.planId ?? randomUUID();
  const lineItemId = overrides.lineItemId ?? randomUUID();
  return {
    id: purchaseRecordId(planId, lineItemId),
    orgId: 'org-1',
    planId,
    lineItemId,
    provider: 'aws',
    accountId: '123456789012',
    offerId: randomUUID(),
    contractType: 'standard_ris',
    region: 'us-east-1',
    quantity: 2,
    instanceType: null,
    limitPrice: { upfront: 0, hourly: 0.06 },
    startsAt: null,
    clientToken: purchaseClientToken(planId, lineItemId),
    plannedUpfrontCost: 0,
    plannedRecurringCost: 0.12,
    status: 'queued',
    attempts: 0,
    claim: null,
    firstClaimedAt: null,
    providerIds: [],
    upfrontCost: null,
    recurringCost: null,
    providerQuantity: null,
    error: null,
    errorCode: null,
    reference: null,
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
    completedAt: null,
    ...overrides,
  };
}
