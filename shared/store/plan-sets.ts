import type { PlanRepository } from '../app/ports';
import type { Provider } from '../domain/engine/shapes/model';
import type { PlanSetState } from '../domain/plans/plan-set';
import { planSetKey } from './keys';
import { getItem, type StoredItem, type TableClient } from './table-client';

/**
 * The plan-set state of an org's provider (`ORG#<org>` / `PLANSET#<provider>`, docs/data-model.md),
 * in a module of its own: a function that only asks whether an org has plans (the onboarding
 * function's child-org listing) reads it without bundling the plan repository (plans.ts).
 */
export async function readPlanSet(
  table: TableClient,
  orgId: string,
  provider: Provider,
): Promise<PlanSetState | null> {
  const item = await getItem(table, planSetKey(orgId, provider));
  return item ? toPlanSetState(item) : null;
}

/** The plan repository's read of the plan-set state alone. */
export function createPlanSetReader(table: TableClient): Pick<PlanRepository, 'planSet'> {
  return { planSet: (orgId, provider) => readPlanSet(table, orgId, provider) };
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
