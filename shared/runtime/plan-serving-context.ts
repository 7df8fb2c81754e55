import type { PlanServingContext } from '../app/commitment-plans';
import { orgRepository, planRepository, usageRepository } from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { lambdaPlanComputation } from './lambda-plan-computation';

const servingRepositories = awsFunctionContext({
  orgs: orgRepository,
  usage: usageRepository,
  plans: planRepository,
});

/**
 * The functions that serve plans (#5, #6, #7, #12: plans, partner-purchase-plans) on AWS: the
 * repositories serving reads, and for a stale read the plan-computation function
 * (lambda-plan-computation.ts), so these functions bundle no engine and no catalog; built on the
 * first invocation. The local server and tests hand a context that computes in their own process.
 */
export const awsPlanServingContext = onFirstUse(
  (): PlanServingContext => ({
    ...servingRepositories(),
    planComputation: lambdaPlanComputation(process.env),
  }),
);
