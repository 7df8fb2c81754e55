import type { PurchaseRepository } from '../app/ports';
import type { Provider } from '../domain/engine/shapes/model';
import type { PurchaseClaim, PurchaseRecord, PurchaseStatus } from '../domain/purchases/purchase-record';
import { purchaseByOrgPartition } from './keys';
import { queryAll, type StoredItem, type TableClient } from './table-client';

/*
 * The read of an org's purchase records (index GSI1, docs/data-model.md) and the record's mapping,
 * in a module of their own: a function that only lists them (the chart and resource matches,
 * which count what was ordered as owned) does so without bundling the purchase repository's
 * conditional writes (purchases.ts).
 */

/** Every purchase record of an org, oldest first. */
export async function listPurchasesByOrg(table: TableClient, orgId: string): Promise<PurchaseRecord[]> {
  const items = await queryAll(table, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :org',
    ExpressionAttributeValues: { ':org': purchaseByOrgPartition(orgId) },
  });
  return items.map(toPurchaseRecord);
}

/** The purchase repository's listing of an org's records alone. */
export function createPurchasesByOrgReader(table: TableClient): Pick<PurchaseRepository, 'listByOrg'> {
  return { listByOrg: (orgId) => listPurchasesByOrg(table, orgId) };
}

export function toPurchaseRecord(item: StoredItem): PurchaseRecord {
  const limit = item.limitPrice as { upfront: number; hourly: number };
  const claim = item.claim as PurchaseClaim | undefined;
  return {
    id: item.id as string,
    orgId: item.orgId as string,
    planId: item.planId as string,
    lineItemId: item.lineItemId as string,
    provider: item.provider as Provider,
    accountId: item.accountId as string,
    offerId: item.offerId as string,
    contractType: item.contractType as string,
    region: item.region as string,
    quantity: item.quantity as number,
    instanceType: (item.instanceType as string | null | undefined) ?? null,
    limitPrice: { upfront: limit.upfront, hourly: limit.hourly },
    // Records written before delayed starts start when bought.
    startsAt: (item.startsAt as string | null | undefined) ?? null,
    clientToken: item.clientToken as string,
    plannedUpfrontCost: item.plannedUpfrontCost as number,
    plannedRecurringCost: item.plannedRecurringCost as number,
    status: item.status as PurchaseStatus,
    attempts: item.attempts as number,
    claim: claim
      ? { attemptId: claim.attemptId, claimedAt: claim.claimedAt, expiresAt: claim.expiresAt }
      : null,
    firstClaimedAt: (item.firstClaimedAt as string | null | undefined) ?? null,
    providerIds: [...((item.providerIds as string[] | undefined) ?? [])],
    upfrontCost: (item.upfrontCost as number | null | undefined) ?? null,
    recurringCost: (item.recurringCost as number | null | undefined) ?? null,
    providerQuantity: (item.providerQuantity as number | null | undefined) ?? null,
    error: (item.error as string | null | undefined) ?? null,
    errorCode: (item.errorCode as string | null | undefined) ?? null,
    reference: (item.reference as string | null | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    completedAt: (item.completedAt as string | null | undefined) ?? null,
  };
}
