import type { PlanRepository } from '../app/ports';
import { ConflictError } from '../domain/errors';
import { updateReturningIf } from './conditional-writes';
import { appliedComputationKey, planKey } from './keys';
import { createPlanReader, toAppliedComputation, toStoredPlan } from './plan-reads';
import { schedulePlan } from './plan-scheduling';
import { getItem, type TableClient } from './table-client';

/**
 * Plans, their line items, resource matches and v2 purchase plan, and the plan-set state
 * (docs/data-model.md). Line items and matches are stored as JSON text: they are the engine's
 * output, read back whole and never updated in place, and JSON is far smaller and faster to read
 * than the same object as nested attributes (a plan can have tens of thousands of matches).
 */
export function createPlanRepository(table: TableClient): PlanRepository {
  return {
    ...createPlanReader(table),

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
