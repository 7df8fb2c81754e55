import * as z from 'zod/mini';
import { type PurchaseRecord, purchaseStatuses } from '../domain/purchases/purchase-record';
import { cloudProvider } from './enums';
import { dateTime, uuid } from './formats';
import { page, pageSize } from './plan-queries';
import { described, named } from './schema-registry';

/** Purchase records (an extension of the interface, docs/purchases.md): what applying a plan bought, line by line. */

export const purchaseStatus = /* @__PURE__ */ named(
  'PurchaseStatus',
  () => z.enum(purchaseStatuses),
  'queued: waits for the processor; purchasing: an attempt holds it; completed: bought (or fulfilled by hand); ' +
    'failed: refused, nothing bought; manual: an operator buys it by hand',
);

export const purchaseRecord = /* @__PURE__ */ named(
  'PurchaseRecord',
  () =>
    z.object({
      id: uuid,
      plan_id: uuid,
      line_item_id: uuid,
      org_id: z.string(),
      provider: cloudProvider,
      account_id: z.string(),
      offer_id: uuid,
      contract_type: z.string(),
      region: z.string(),
      quantity: described(
        z.number(),
        "in the plan's units: instances, normalized units, or $/h of commitment",
      ),
      instance_type: described(z.nullable(z.string()), 'the size a size-flexible reservation is bought in'),
      status: purchaseStatus,
      attempts: described(z.int(), 'attempts that claimed the purchase'),
      provider_ids: described(z.array(z.string()), "the provider's ids of what was bought"),
      planned_upfront_cost: z.number(),
      planned_recurring_cost: described(z.number(), 'per hour'),
      upfront_cost: described(
        z.nullable(z.number()),
        'what the provider charged upfront; null until completed',
      ),
      recurring_cost: described(z.nullable(z.number()), 'per hour; null until completed'),
      provider_quantity: described(z.nullable(z.number()), "what was bought, in the provider's units"),
      limit_price: z.object({ upfront: z.number(), hourly: z.number() }),
      error: described(z.nullable(z.string()), 'why it failed, or why it waits for an operator'),
      error_code: z.nullable(z.string()),
      reference: described(z.nullable(z.string()), "the operator's reference of a purchase made by hand"),
      created_at: dateTime,
      updated_at: dateTime,
      completed_at: z.nullable(dateTime),
    }),
  "One line item's purchase",
);
export type PurchaseRecordView = z.infer<typeof purchaseRecord>;

export const purchasesQuery = /* @__PURE__ */ z.lazy(() => z.strictObject({ page, page_size: pageSize }));

/** A purchase record as the contract shows it, parsed through its schema (no internal field leaks). */
export function purchaseRecordView(record: PurchaseRecord): PurchaseRecordView {
  return purchaseRecord.parse({
    id: record.id,
    plan_id: record.planId,
    line_item_id: record.lineItemId,
    org_id: record.orgId,
    provider: record.provider,
    account_id: record.accountId,
    offer_id: record.offerId,
    contract_type: record.contractType,
    region: record.region,
    quantity: record.quantity,
    instance_type: record.instanceType,
    status: record.status,
    attempts: record.attempts,
    provider_ids: record.providerIds,
    planned_upfront_cost: record.plannedUpfrontCost,
    planned_recurring_cost: record.plannedRecurringCost,
    upfront_cost: record.upfrontCost,
    recurring_cost: record.recurringCost,
    provider_quantity: record.providerQuantity,
    limit_price: record.limitPrice,
    error: record.error,
    error_code: record.errorCode,
    reference: record.reference,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    completed_at: record.completedAt,
  });
}
