import { getRecommendedPurchasePlan } from '../../shared/app/commitment-plans';
import { partnerPurchasePlanOperations } from '../../shared/contract/operations/partner-purchase-plans';
import { recommendedPurchasePlanView } from '../../shared/contract/plan-views';
import { residualArena } from '../../shared/domain/engine/residual-arena';
import { createGroupHandler } from '../../shared/http/group-handler';
import { noContent } from '../../shared/http/operation';
import { functionContext } from '../../shared/runtime/current';
import {
  commitmentRepository,
  orgRepository,
  planRepository,
  usageRepository,
} from '../../shared/store/store';

/** The repositories this function's use cases read and write; it bundles no other. */
const appContext = functionContext(
  { orgs: orgRepository, usage: usageRepository, commitments: commitmentRepository, plans: planRepository },
  { engineMemory: residualArena },
);
/** Partners' view of an org's recommended plan, as a v2 purchase plan (#12). */
export const handler = createGroupHandler(partnerPurchasePlanOperations, {
  getRecommendedPurchasePlan: async ({ principal, pathParams, query }) => {
    const plan = await getRecommendedPurchasePlan(appContext(), principal, pathParams.org_id, query.provider);
    return plan ? recommendedPurchasePlanView(plan) : noContent();
  },
});
