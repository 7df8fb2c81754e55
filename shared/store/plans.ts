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
import { ConflictError } from '../domain/errors';
import type { AppliedComputation } from '../domain/plans/applied-computation';
import type { StoredPlan } from '../domain/plans/plan-set';
import { getItems } from './batch-reads';
import { fromCompressedParts } from './compressed-parts';
import { updateReturningIf } from './conditional-writes';
import {
  appliedComputationKey,
  lineItemPrefix,
  planKey,
  planPartition,
  purchasePlanPartPrefix,
  resourceMatchPrefix,
} from './keys';
import { schedulePlan } from './plan-scheduling';
import { readPlanSet } from './plan-sets';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/**
 * Plans, their line items, resource matches and v2 purchase plan, and the plan-set state
 * (docs/data-model.md). Line items and matches are stored as JSON text: they are the engine's
 * output, read back whole and never updated in place, and JSON is far smaller and faster to read
 * than the same object as nested attributes (a plan can have tens of thousands of matches).
 */
export function createPlanRepository(table: TableClient): PlanRepository {
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

    async claimComputation(orgId, provider, usageVersion, claim, takeOverFrom) {
      const key = appliedComputationKey(orgId, provider, usageVersion);
      const written = await updateReturningIf(table, {
        key,
        expression:
          'SET #type = :type, orgId = :org, provider = :provider, usageVersion = :version, ' +
          'planId = :plan, appliedBy = :by, appliedAt = :at',
        // Free, or this plan's claim by the same caller (a retry), or by the user a re-apply
        // after a review takes over from.
        condition:
          'attribute_not_exists(PK) OR (planId = :plan AND (appliedBy = :by OR appliedBy = :previous))',
        names: { '#type': 'type' },
        values: {
          ':type': 'applied_computation',
          ':org': orgId,
          ':provider': provider,
          ':version': usageVersion,
          ':plan': claim.planId,
          ':by': claim.appliedBy,
          ':at': claim.appliedAt,
          ':previous': takeOverFrom ?? claim.appliedBy,
        },
      });
      if (written) return toAppliedComputation(written);
      const held = await getItem(table, key);
      if (!held) throw new ConflictError('The computation claim changed while it was being written; retry');
      return toAppliedComputation(held);
    },

    async changeStatus(orgId, provider, planId, change) {
      const from = change.from.map((_, index) => `:from${index}`);
      const item = await updateReturningIf(table, {
        key: planKey(orgId, provider, planId),
        expression: `SET #status = :to, lastModified = :at${change.appliedBy ? ', appliedBy = :by, appliedAt = :at' : ''}`,
        condition: `attribute_exists(PK) AND #status IN (${from.join(', ')})`,
        names: { '#status': 'status' },
        values: {
          ':to': change.to,
          ':at': change.at,
          ...Object.fromEntries(change.from.map((status, index) => [`:from${index}`, status])),
          ...(change.appliedBy ? { ':by': change.appliedBy } : {}),
        },
      });
      return item ? toStoredPlan(item) : null;
    },

    async scheduleApplication(scheduling) {
      const failed = await schedulePlan(table, scheduling);
      if (failed.length > 0) return { scheduled: false, failed };
      const item = await getItem(table, planKey(scheduling.orgId, scheduling.provider, scheduling.planId));
      // Just written, and an applied plan is never deleted.
      if (!item) throw new Error(`Plan ${scheduling.planId} was scheduled but cannot be read back`);
      return { scheduled: true, plan: toStoredPlan(item) };
    },
  };
}

function toAppliedComputation(item: StoredItem): AppliedComputation {
  return {
    planId: item.planId as string,
    appliedBy: item.appliedBy as string,
    appliedAt: item.appliedAt as string,
  };
}

function toStoredPlan(item: StoredItem): StoredPlan {
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
