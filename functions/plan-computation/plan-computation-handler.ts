import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { refreshPlans } from '../../shared/app/plan-computation';
import type { ContextWith, PlanRefresh } from '../../shared/app/ports';
import { currentPurchaseTerms } from '../../shared/app/purchase-terms';
import type { PurchaseTerms } from '../../shared/domain/purchases/purchase-terms';
import { planComputationRequest } from '../../shared/runtime/plan-computation-request';

/**
 * What plan computation runs with: the repositories it reads and writes, and the engine's memory
 * kept between runs (`engineMemory`).
 */
export type PlanComputationContext = ContextWith<
  'catalog' | 'orgs' | 'usage' | 'commitments' | 'plans' | 'computedPlans' | 'purchases'
>;

/**
 * Computes an org's plans for a provider when they are missing or stale (`refreshPlans`), invoked
 * synchronously by the plan-serving functions (plans, partner-purchase-plans) on a stale read; and
 * answers the plan-purchases function the current catalog's terms of the offers a plan being
 * applied buys (`currentPurchaseTerms`), so that it carries no catalog.
 * The one function that carries the plan engine and the catalog for plans, with the memory (CPU)
 * they want.
 */
export function createPlanComputationHandler(computationContext: () => PlanComputationContext) {
  const logger = new Logger();

  return middy(async (event: unknown): Promise<PlanRefresh | PurchaseTerms> => {
    const request = planComputationRequest(event);
    if ('kind' in request) {
      return currentPurchaseTerms(computationContext().repos.catalog, request.provider, request.offers);
    }
    const { orgId, provider } = request;
    const refresh = await refreshPlans(computationContext(), orgId, provider);
    logger.info('plans refreshed', { orgId, provider, outcome: refresh.outcome });
    return refresh;
  }).use(injectLambdaContext(logger, { resetKeys: true }));
}
