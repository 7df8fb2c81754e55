import type { PlanContent, PlanRepository } from '../app/ports';
import { cloudProviders } from '../domain/cloud-providers';
import type {
  CommitmentPlan,
  CommitmentSharing,
  LineItem,
  LineResourceMatch,
  Provider,
  RecommendedPurchasePlan,
  ResourceMatch,
} from '../domain/engine';
import { DEFAULT_RENEWAL_HORIZON_DAYS } from '../domain/engine/shapes/plan-time';
import type { AppliedComputation } from '../domain/plans/applied-computation';
import type { StoredPlan } from '../domain/plans/plan-set';
import { getItems } from './batch-reads';
import { fromCompressedParts } from './compressed-parts';
import {
  appliedComputationKey,
  lineItemPrefix,
  planKey,
  planPartition,
  purchasePlanPartPrefix,
  resourceMatchPrefix,
} from './keys';
import { readPlanSet } from './plan-sets';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/** What the plan repository reads: every method but the writes of applying a plan. */
export type PlanReads = Omit<PlanRepository, 'claimComputation' | 'changeStatus' | 'scheduleApplication'>;

/**
 * The plan repository's reads (plans.ts), in a module of their own: a function that only reads
 * plans (plan-coverage) does so without bundling the writes of applying one (the transaction of
 * plan-scheduling.ts, the conditional updates).
 */
export function createPlanReader(table: TableClient): PlanReads {
  function partitionQuery(planId: string, prefix: string) {
    return {
      KeyConditionExpression: 'PK = :plan AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':plan': planPartition(planId), ':prefix': prefix },
      ConsistentRead: true,
    };
  }

  return {
    planSet: (orgId, provider) => readPlanSet(table, orgId, provider),

    async getPlans(orgId, provider, planIds) {
      const items = await getItems(
        table,
        planIds.map((planId) => planKey(orgId, provider, planId)),
      );
      const byId = new Map(items.map((item) => [item.planId as string, toStoredPlan(item)]));
      return planIds.flatMap((planId) => byId.get(planId) ?? []);
    },

    async planContent(orgId, planId) {
      // The plan's provider is not known here: its item is one of three keys, read in one batch
      // while its line items are queried.
      const [plans, lineItems] = await Promise.all([
        getItems(
          table,
          cloudProviders.map((provider) => planKey(orgId, provider, planId)),
        ),
        queryAll(table, partitionQuery(planId, lineItemPrefix)),
      ]);
      const item = plans[0];
      if (!item) return null;
      const stored = toStoredPlan(item);
      // Fewer line items than the plan counts: the plan is being written or deleted.
      if (lineItems.length !== stored.lineItemCount) return null;
      return toPlanContent(stored, lineItems);
    },

    async listResourceMatches(planId, lineItemIds) {
      const pages = lineItemIds
        ? await Promise.all(
            [...new Set(lineItemIds)].map((lineItemId) =>
              queryAll(table, partitionQuery(planId, `${resourceMatchPrefix}${lineItemId}#`)),
            ),
          )
        : [await queryAll(table, partitionQuery(planId, resourceMatchPrefix))];
      return pages
        .flat()
        .sort((a, b) => (a.position as number) - (b.position as number))
        .map(toLineResourceMatch);
    },

    async resourceMatchLineItems(planId) {
      const items = await queryAll(table, {
        ...partitionQuery(planId, resourceMatchPrefix),
        ProjectionExpression: 'SK',
      });
      return new Map(
        items.map((item) => {
          const [, lineItemId, matchId] = (item.SK as string).split('#');
          return [matchId as string, lineItemId as string];
        }),
      );
    },

    async purchasePlan(planId) {
      const items = await queryAll(table, partitionQuery(planId, purchasePlanPartPrefix));
      if (items.length === 0 || items.length !== items[0]?.parts) return null;
      return fromCompressedParts(items.map((item) => item.data as Uint8Array)) as RecommendedPurchasePlan;
    },

    async appliedComputation(orgId, provider, usageVersion) {
      const item = await getItem(table, appliedComputationKey(orgId, provider, usageVersion));
      return item ? toAppliedComputation(item) : null;
    },
  };
}

export function toAppliedComputation(item: StoredItem): AppliedComputation {
  return {
    planId: item.planId as string,
    appliedBy: item.appliedBy as string,
    appliedAt: item.appliedAt as string,
  };
}

export function toStoredPlan(item: StoredItem): StoredPlan {
  const window = item.window as { start: string; hours: number };
  return {
    orgId: item.orgId as string,
    provider: item.provider as Provider,
    usageVersion: item.usageVersion as number,
    planSeed: item.planSeed as string,
    window: { start: window.start, hours: window.hours },
    // Plans stored before the setting existed were computed per account.
    sharing: (item.commitmentSharing as CommitmentSharing | undefined) ?? 'account',
    // Plans stored before the horizon existed: the default.
    renewalHorizonDays: (item.renewalHorizonDays as number | undefined) ?? DEFAULT_RENEWAL_HORIZON_DAYS,
    // Plans stored before catalogs were versioned were priced with the bundled one.
    catalogVersion: (item.catalogVersion as string | undefined) ?? 'bundled',
    plan: {
      ...(item.plan as Omit<CommitmentPlan, 'status' | 'is_calculating'>),
      status: item.status as CommitmentPlan['status'],
      is_calculating: false,
    },
    lineItemCount: item.lineItemCount as number,
    application:
      typeof item.appliedBy === 'string'
        ? {
            appliedBy: item.appliedBy,
            appliedAt: item.appliedAt as string,
            lastModified: item.lastModified as string,
          }
        : null,
  };
}

/**
 * A stored line item; one stored before renewals had a start is bought now (startsAt null), one
 * stored before layers is the only line of its pool (layer 0).
 */
function storedLineItem(item: StoredItem): LineItem {
  const lineItem = JSON.parse(item.lineItem as string) as Omit<LineItem, 'startsAt' | 'layer'> & {
    startsAt?: string | null;
    layer?: number;
  };
  return { ...lineItem, startsAt: lineItem.startsAt ?? null, layer: lineItem.layer ?? 0 };
}

function toPlanContent(stored: StoredPlan, items: readonly StoredItem[]): PlanContent {
  const lineItems = [...items]
    .sort((a, b) => (a.position as number) - (b.position as number))
    .map(storedLineItem);
  return {
    planId: stored.plan.id,
    orgId: stored.orgId,
    provider: stored.provider,
    usageVersion: stored.usageVersion,
    planSeed: stored.planSeed,
    window: stored.window,
    sharing: stored.sharing,
    renewalHorizonDays: stored.renewalHorizonDays,
    catalogVersion: stored.catalogVersion,
    createdAt: stored.plan.created_at,
    lineItems,
  };
}

function toLineResourceMatch(item: StoredItem): LineResourceMatch {
  return { lineItemId: item.lineItemId as string, match: JSON.parse(item.match as string) as ResourceMatch };
}
