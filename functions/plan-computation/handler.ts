import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { refreshPlans } from '../../shared/app/plan-computation';
import type { PlanRefresh } from '../../shared/app/ports';
import { residualArena } from '../../shared/domain/engine/residual-arena';
import { functionContext } from '../../shared/runtime/current';
import { planComputationRequest } from '../../shared/runtime/plan-computation-request';
import {
  commitmentRepository,
  computedPlanRepository,
  orgRepository,
  planRepository,
  usageRepository,
} from '../../shared/store/store';

/**
 * Computes an org's plans for a provider when they are missing or stale (`refreshPlans`), invoked
 * synchronously by the plan-serving functions (plans, partner-purchase-plans) on a stale read.
 * The one function that carries the plan engine and the catalog for plans, with the memory (CPU)
 * they want.
 */
const logger = new Logger();

/** The repositories plan computation reads and writes, and the engine's memory kept between runs. */
const computationContext = functionContext(
  {
    orgs: orgRepository,
    usage: usageRepository,
    commitments: commitmentRepository,
    plans: planRepository,
    computedPlans: computedPlanRepository,
  },
  { engineMemory: residualArena },
);

export const handler = middy(async (event: unknown): Promise<PlanRefresh> => {
  const { orgId, provider } = planComputationRequest(event);
  const refresh = await refreshPlans(computationContext(), orgId, provider);
  logger.info('plans refreshed', { orgId, provider, outcome: refresh.outcome });
  return refresh;
}).use(injectLambdaContext(logger, { resetKeys: true }));
