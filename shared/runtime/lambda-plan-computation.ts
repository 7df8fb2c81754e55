import { type PlanComputation, type PlanRefresh, planRefreshOutcomes } from '../app/ports';
import { planComputationInvoker } from './plan-computation-invoke';
import type { PlanComputationRequest } from './plan-computation-request';

/** The plan-computation function failed, or answered something that is not a refresh. */
export class PlanComputationFailed extends Error {
  override readonly name = 'PlanComputationFailed';
}

/**
 * Plans computed by the plan-computation function (`PLAN_COMPUTATION_FUNCTION`), invoked
 * synchronously: the serving function waits for the refresh as it would for one in its own
 * process, so a stale read answers the new plans, as before, while the engine and the catalog
 * stay out of the serving functions' bundles. The Lambda client is created with the first stale
 * read.
 */
export function lambdaPlanComputation(env: NodeJS.ProcessEnv): PlanComputation {
  const ask = planComputationInvoker(env, 'plans');
  return async (orgId, provider) => {
    const request: PlanComputationRequest = { orgId, provider };
    const failed = (reason: string) =>
      new PlanComputationFailed(`The plan computation of ${orgId} (${provider}) ${reason}`);
    const refresh = await ask(request, failed);
    const outcome = (refresh as { outcome?: unknown } | null)?.outcome;
    if (typeof outcome !== 'string' || !(planRefreshOutcomes as readonly string[]).includes(outcome)) {
      throw failed(`answered no refresh: ${JSON.stringify(refresh).slice(0, 200)}`);
    }
    return refresh as PlanRefresh;
  };
}
