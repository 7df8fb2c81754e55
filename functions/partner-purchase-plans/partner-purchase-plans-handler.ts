import { getRecommendedPurchasePlan, type PlanServingContext } from '../../shared/app/commitment-plans';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { partnerPurchasePlanOperations } from '../../shared/contract/operations/partner-purchase-plans';
import { recommendedPurchasePlanView } from '../../shared/contract/plan-views';
import { createGroupHandler } from '../../shared/http/group-handler';
import { noContent } from '../../shared/http/operation';

/** Partners' view of an org's recommended plan, as a v2 purchase plan (#12). */
export function createPartnerPurchasePlansHandler(
  planServingContext: () => PlanServingContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    partnerPurchasePlanOperations,
    {
      getRecommendedPurchasePlan: async ({ principal, pathParams, query }) => {
        const plan = await getRecommendedPurchasePlan(
          planServingContext(),
          principal,
          pathParams.org_id,
          query.provider,
        );
        return plan ? recommendedPurchasePlanView(plan) : noContent();
      },
    },
    { requestThrottle },
  );
}
