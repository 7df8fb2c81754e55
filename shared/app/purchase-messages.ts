import type { PurchaseRecord } from '../domain/purchases/purchase-record';
import type { PurchaseMessage } from './ports/purchase-queue';

/** The message that wakes the processor for a record, in the record's current state. */
export function purchaseMessageOf(record: PurchaseRecord): PurchaseMessage {
  return {
    orgId: record.orgId,
    planId: record.planId,
    lineItemId: record.lineItemId,
    revision: record.updatedAt,
  };
}
