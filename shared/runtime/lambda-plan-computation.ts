import { type PlanComputation, type PlanRefresh, planRefreshOutcomes } from '../app/ports';
import { configuredRegion } from './aws';
import { lambdaInvoker } from './lambda-invoke';
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
  const functionName = env.PLAN_COMPUTATION_FUNCTION;
  if (!functionName) {
    throw new Error('PLAN_COMPUTATION_FUNCTION is not set: the function that computes plans');
  }
  let invoke: ReturnType<typeof lambdaInvoker> | undefined;
  return async (orgId, provider) => {
    invoke ??= lambdaInvoker(configuredRegion(env));
    const request: PlanComputationRequest = { orgId, provider };
    const { functionError, text } = await invoke(functionName, request);
    if (functionError) {
      throw new PlanComputationFailed(`The plan computation of ${orgId} (${provider}) failed: ${text}`);
    }
    return planRefreshIn(text);
  };
}

function planRefreshIn(text: string): PlanRefresh {
  let refresh: unknown;
  try {
    refresh = JSON.parse(text);
  } catch {
    throw new PlanComputationFailed(`The plan computation answered no JSON: ${text.slice(0, 200)}`);
  }
  const outcome = (refresh as { outcome?: unknown } | null)?.outcome;
  if (typeof outcome !== 'string' || !(planRefreshOutcomes as readonly string[]).includes(outcome)) {
    throw new PlanComputationFailed(`The plan computation answered no refresh: ${text.slice(0, 200)}`);
  }
  return refresh as PlanRefresh;
}
