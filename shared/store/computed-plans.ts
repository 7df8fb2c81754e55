import type { ComputedPlanRepository, PlanBasis } from '../app/ports';
import type { CommitmentPlan, LineItem, LineResourceMatch, Provider } from '../domain/engine';
import { type BatchWrite, writeInBatches } from './batch-writes';
import { compressedParts } from './compressed-parts';
import { deleteIf, updateIf } from './conditional-writes';
import {
  type ItemKey,
  lineItemKey,
  planByIdIndexKey,
  planKey,
  planPartition,
  planSetKey,
  purchasePlanPartKey,
  resourceMatchKey,
} from './keys';
import { queryAll, type StoredItem, type TableClient } from './table-client';

/** The status of a plan nobody applied: only such plans are ever deleted. */
const UNAPPLIED_STATUS: CommitmentPlan['status'] = 'new';

/**
 * What a plan computation writes (docs/data-model.md): its claim on the plan set, its plans with
 * their line items, resource matches and v2 purchase plan, the published set, and the deletion of
 * superseded plans. Apart from the readers' repository (plans.ts), so that the functions that
 * only serve or apply plans bundle none of it. Line items and matches are stored as JSON text
 * (plans.ts says why).
 */
export function createComputedPlanRepository(table: TableClient): ComputedPlanRepository {
  return {
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

    async deletePlan(orgId, provider, planId) {
      const deleted = await deleteIf(table, {
        key: planKey(orgId, provider, planId),
        condition: 'attribute_not_exists(PK) OR #status = :unapplied',
        names: { '#status': 'status' },
        values: { ':unapplied': UNAPPLIED_STATUS },
      });
      if (!deleted) return false;
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
    renewalHorizonDays: basis.renewalHorizonDays,
    catalogVersion: basis.catalogVersion ?? 'bundled',
    status,
    lineItemCount,
    // The plan's answer names the catalog version it was priced with (`catalog_version`).
    plan: { ...fields, catalog_version: basis.catalogVersion ?? 'bundled' },
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
