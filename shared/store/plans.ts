import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { PlanBasis, PlanContent, PlanRepository } from '../app/ports';
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
import type { PlanSetState, StoredPlan } from '../domain/plans/plan-set';
import { getItems } from './batch-reads';
import { type BatchWrite, writeInBatches } from './batch-writes';
import { compressedParts, fromCompressedParts } from './compressed-parts';
import { isConditionFailure, updateIf, updateReturningIf } from './conditional-writes';
import {
  type ItemKey,
  lineItemKey,
  lineItemPrefix,
  planByIdIndexKey,
  planKey,
  planPartition,
  planSetKey,
  purchasePlanPartKey,
  purchasePlanPartPrefix,
  resourceMatchKey,
  resourceMatchPrefix,
} from './keys';
import { getItem, queryAll, type StoredItem, type TableClient } from './table-client';

/** The status of a plan nobody applied: only such plans are ever deleted. */
const UNAPPLIED_STATUS: CommitmentPlan['status'] = 'new';

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
    async planSet(orgId, provider) {
      const item = await getItem(table, planSetKey(orgId, provider));
      return item ? toPlanSetState(item) : null;
    },

    claimCalculation(orgId, provider, calculation, expiredBefore) {
      return updateIf(table, {
        key: planSetKey(orgId, provider),
        expression:
          'SET #type = :type, orgId = :org, provider = :provider, claimId = :claim, claimVersion = :claimVersion, claimedAt = :at',
        condition:
          '(attribute_not_exists(claimId) OR claimedAt < :expired) AND ' +
          '(attribute_not_exists(usageVersion) OR usageVersion <> :claimVersion)',
        names: { '#type': 'type' },
        values: {
          ':type': 'plan_set',
          ':org': orgId,
          ':provider': provider,
          ':claim': calculation.claimId,
          ':claimVersion': calculation.usageVersion,
          ':at': calculation.startedAt,
          ':expired': expiredBefore,
        },
      });
    },

    completeCalculation(orgId, provider, claimId, computed) {
      const recommended = computed.recommendedPlanId;
      return updateIf(table, {
        key: planSetKey(orgId, provider),
        expression:
          'SET usageVersion = :usageVersion, planIds = :planIds, computedAt = :at' +
          (recommended === null ? '' : ', recommendedPlanId = :recommended') +
          ' REMOVE claimId, claimVersion, claimedAt' +
          (recommended === null ? ', recommendedPlanId' : ''),
        condition: 'claimId = :claim',
        values: {
          ':usageVersion': computed.usageVersion,
          ':planIds': [...computed.planIds],
          ':at': computed.computedAt,
          ':claim': claimId,
          ...(recommended === null ? {} : { ':recommended': recommended }),
        },
      });
    },

    async releaseCalculation(orgId, provider, claimId) {
      await updateIf(table, {
        key: planSetKey(orgId, provider),
        expression: 'REMOVE claimId, claimVersion, claimedAt',
        condition: 'claimId = :claim',
        values: { ':claim': claimId },
      });
    },

    async storePlans(orgId, basis, computed) {
      // Everything under the plans first, the plan items last: a plan item is the sign that its
      // plan is complete (readers check its line-item count), and nothing references the plans
      // until the plan set is completed with their ids.
      const contents: BatchWrite[] = [];
      const planItems: BatchWrite[] = [];
      for (const { plan, lineItems, resourceMatches } of computed.plans) {
        lineItems.forEach((lineItem, position) => {
          contents.push({ put: toLineItemItem(plan.id, lineItem, position) });
        });
        for (let position = 0; position < resourceMatches.size; position++) {
          contents.push({ put: toMatchItem(plan.id, resourceMatches.at(position), position) });
        }
        planItems.push({ put: toPlanItem(orgId, computed.provider, basis, plan, lineItems.length) });
      }
      if (computed.purchasePlan) {
        const planId = computed.purchasePlan.id;
        const parts = compressedParts(computed.purchasePlan);
        parts.forEach((data, part) => {
          contents.push({
            put: {
              ...purchasePlanPartKey(planId, part),
              type: 'purchase_plan_part',
              version: 1,
              planId,
              parts: parts.length,
              data,
            },
          });
        });
      }
      await writeInBatches(table, contents);
      await writeInBatches(table, planItems);
    },

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

    async deletePlan(orgId, provider, planId) {
      try {
        await table.client.send(
          new DeleteCommand({
            TableName: table.tableName,
            Key: planKey(orgId, provider, planId),
            ConditionExpression: 'attribute_not_exists(PK) OR #status = :unapplied',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':unapplied': UNAPPLIED_STATUS },
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
      const items = await queryAll(table, {
        KeyConditionExpression: 'PK = :plan',
        ExpressionAttributeValues: { ':plan': planPartition(planId) },
        ProjectionExpression: 'PK, SK',
        ConsistentRead: true,
      });
      await writeInBatches(
        table,
        items.map((item) => ({ delete: { PK: item.PK as string, SK: item.SK as string } })),
      );
      return true;
    },
  };
}

function toPlanItem(
  orgId: string,
  provider: Provider,
  basis: PlanBasis,
  plan: CommitmentPlan,
  lineItemCount: number,
): StoredItem & ItemKey {
  // `status` is the plan's own attribute (applying a plan changes it); `is_calculating` is not
  // stored: it is whether the plan set is current when the plan is read.
  const { status, is_calculating: _calculating, ...fields } = plan;
  return {
    ...planKey(orgId, provider, plan.id),
    ...planByIdIndexKey(plan.id),
    type: 'plan',
    version: 1,
    planId: plan.id,
    orgId,
    provider,
    usageVersion: basis.usageVersion,
    planSeed: basis.planSeed,
    window: { start: basis.window.start, hours: basis.window.hours },
    commitmentSharing: basis.sharing,
    status,
    lineItemCount,
    plan: fields,
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

function toLineItemItem(planId: string, lineItem: LineItem, position: number): StoredItem & ItemKey {
  return {
    ...lineItemKey(planId, lineItem.id),
    type: 'line_item',
    version: 1,
    planId,
    position,
    lineItem: JSON.stringify(lineItem),
  };
}

function toPlanContent(stored: StoredPlan, items: readonly StoredItem[]): PlanContent {
  const lineItems = [...items]
    .sort((a, b) => (a.position as number) - (b.position as number))
    .map((item) => JSON.parse(item.lineItem as string) as LineItem);
  return {
    planId: stored.plan.id,
    orgId: stored.orgId,
    provider: stored.provider,
    usageVersion: stored.usageVersion,
    planSeed: stored.planSeed,
    window: stored.window,
    sharing: stored.sharing,
    createdAt: stored.plan.created_at,
    lineItems,
  };
}

function toMatchItem(planId: string, entry: LineResourceMatch, position: number): StoredItem & ItemKey {
  return {
    ...resourceMatchKey(planId, entry.lineItemId, entry.match.id),
    type: 'resource_match',
    version: 1,
    planId,
    lineItemId: entry.lineItemId,
    position,
    match: JSON.stringify(entry.match),
  };
}

function toLineResourceMatch(item: StoredItem): LineResourceMatch {
  return { lineItemId: item.lineItemId as string, match: JSON.parse(item.match as string) as ResourceMatch };
}

function toPlanSetState(item: StoredItem): PlanSetState {
  return {
    orgId: item.orgId as string,
    provider: item.provider as Provider,
    computed:
      item.usageVersion === undefined
        ? null
        : {
            usageVersion: item.usageVersion as number,
            planIds: item.planIds as string[],
            recommendedPlanId: (item.recommendedPlanId as string | undefined) ?? null,
            computedAt: item.computedAt as string,
          },
    calculation:
      item.claimId === undefined
        ? null
        : {
            claimId: item.claimId as string,
            usageVersion: item.claimVersion as number,
            startedAt: item.claimedAt as string,
          },
  };
}
