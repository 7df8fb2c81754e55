import type { FlaggedAction, PlanStatus } from '../engine';
import type { PurchaseRecord, PurchaseStatus } from './purchase-record';

/** How a purchase shows as a flagged action of the v2 purchase plan (docs/purchases.md, #13). */
const actionStatus: Readonly<Record<PurchaseStatus, string>> = {
  queued: 'submitted',
  purchasing: 'submitted',
  // Waits for an operator to buy it by hand: still submitted, with the reason in execution_info.
  manual: 'submitted',
  completed: 'executed',
  failed: 'failed',
};

export interface ActionPlan {
  readonly id: string;
  readonly name: string;
  readonly status: PlanStatus;
  readonly isDefault: boolean;
  /** The user the plan was applied as. */
  readonly appliedBy: string;
}

export function flaggedActionOf(record: PurchaseRecord, plan: ActionPlan): FlaggedAction {
  return {
    plan_id: record.planId,
    id: record.id,
    org_id: record.orgId,
    user_id: plan.appliedBy,
    provider: record.provider,
    action_type: 'purchase',
    action_description: describePurchase(record),
    status: actionStatus[record.status],
    creation_time: record.createdAt,
    execution_time: record.completedAt ?? record.updatedAt,
    execution_info: {
      purchase_status: record.status,
      line_item_id: record.lineItemId,
      attempts: record.attempts,
      provider_ids: [...record.providerIds],
      error: record.error,
      reference: record.reference,
    },
    plan: { name: plan.name, id: plan.id, is_default: plan.isDefault, status: plan.status },
  };
}

function describePurchase(record: PurchaseRecord): string {
  const what =
    record.instanceType !== null
      ? `${record.quantity} units of ${record.contractType} as ${record.instanceType}`
      : `${record.quantity} of ${record.contractType}`;
  return `Buy ${what} in ${record.region} for account ${record.accountId}`;
}
