import type { Provider } from '../domain/engine';
import { isCurrent, type PlanSetState } from '../domain/plans/plan-set';
import { importStatus, type UsageState } from '../domain/usage/usage-state';
import type { ContextWith, PlanRefresh } from './ports';

/** What the stored plan set and usage say before anything is computed: `stale` needs a computation. */
export type StoredPlanState =
  | PlanRefresh
  | {
      readonly outcome: 'stale';
      readonly planSet: PlanSetState | null;
      readonly usageState: UsageState | null;
    };

/**
 * Reads the provider's plan set and usage state and judges them: current, or not to be computed
 * now (an import is open or was abandoned), or stale. The serving functions ask this first, so
 * only a stale read goes on to a computation.
 */
export async function storedPlanState(
  ctx: ContextWith<'plans' | 'usage'>,
  orgId: string,
  provider: Provider,
): Promise<StoredPlanState> {
  const [usageState, planSet] = await Promise.all([
    ctx.repos.usage.usageState(orgId, provider),
    ctx.repos.plans.planSet(orgId, provider),
  ]);
  const now = ctx.clock.now();
  if (isCurrent(planSet, usageState, now)) return { outcome: 'current', planSet, usageState };
  const status = importStatus(usageState, now);
  if (status === 'open') return { outcome: 'importing', planSet, usageState };
  if (status === 'abandoned') return { outcome: 'abandoned', planSet, usageState };
  return { outcome: 'stale', planSet, usageState };
}
