import type { OperationList } from '../operation-contract';
import { recommendedPurchasePlan, recommendedPurchasePlanQuery } from '../purchase-plans';
import { orgPath } from './path-params';

/** The recommended plan as a v2 purchase plan (#12). */
export const partnerPurchasePlanOperations = {
  getRecommendedPurchasePlan: {
    method: 'GET',
    path: '/v2/org/{org_id}/partners/purchase-plans-v2/recommended',
    group: 'partner-purchase-plans',
    summary: 'The recommended purchase plan for a provider; 204 when there is none',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    pathParams: orgPath,
    query: recommendedPurchasePlanQuery,
    responses: { 200: recommendedPurchasePlan, 204: null },
  },
} satisfies OperationList;
