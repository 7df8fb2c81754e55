import type { PlanServingContext } from '../app/commitment-plans';
import { hasPlanComputation } from '../app/ports';
import { orgRepository, planRepository, usageRepository } from '../store/store';
import { functionContext } from './current';
import { lambdaPlanComputation } from './lambda-plan-computation';

/**
 * The context of the functions that serve plans (#5, #6, #7, #12): the repositories serving reads,
 * and the plan computation for a stale read. On Lambda that computation is the plan-computation
 * function (lambda-plan-computation.ts), so these functions bundle no engine and no catalog; the
 * local server and tests install a context that computes in their own process.
 */
const servingContext = functionContext({
  orgs: orgRepository,
  usage: usageRepository,
  plans: planRepository,
});

let onLambda: PlanServingContext | undefined;

export function planServingContext(): PlanServingContext {
  const ctx = servingContext();
  if (hasPlanComputation(ctx)) return ctx;
  onLambda ??= { ...ctx, planComputation: lambdaPlanComputation(process.env) };
  return onLambda;
}
