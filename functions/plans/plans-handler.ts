import {
  getRecommendedPlan,
  listDefaultPlans,
  type PlanServingContext,
} from '../../shared/app/commitment-plans';
import { listPlanLineItems } from '../../shared/app/plan-line-items';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { planOperations } from '../../shared/contract/operations/plans';
import { commitmentPlanView, lineItemJson, lineItemSortKeys } from '../../shared/contract/plan-views';
import { createGroupHandler } from '../../shared/http/group-handler';
import { noContent, withHeaders } from '../../shared/http/operation';
import { paginate, paginationHeaderName } from '../../shared/http/pagination';
import { serializedArray } from '../../shared/http/serialized-json';

/** Commitment plans (#5, #6), computed in the request when missing or stale, and their line items (#7). */
export function createPlansHandler(
  planServingContext: () => PlanServingContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    planOperations,
    {
      getRecommendedCommitmentPlan: async ({ principal, pathParams, query }) => {
        const plan = await getRecommendedPlan(
          planServingContext(),
          principal,
          pathParams.org_id,
          query.provider,
        );
        return plan ? commitmentPlanView(plan) : noContent();
      },

      listDefaultCommitmentPlans: async ({ principal, pathParams, query }) => {
        const plans = await listDefaultPlans(
          planServingContext(),
          principal,
          pathParams.org_id,
          query.provider,
        );
        return plans.map(commitmentPlanView);
      },

      listPlanLineItems: async ({ principal, pathParams, query }) => {
        const items = await listPlanLineItems(
          planServingContext(),
          principal,
          pathParams.org_id,
          pathParams.plan_id,
          {
            order: {
              key: query.order_by === null ? null : lineItemSortKeys[query.order_by],
              descending: query.desc,
            },
            segmentId: query.segment_id,
            resourceMatchIds: query.resource_match_ids,
          },
        );
        const page = paginate(items, { page: query.page, pageSize: query.page_size });
        return withHeaders(serializedArray(page.items.map(lineItemJson)), {
          [paginationHeaderName]: page.header,
        });
      },
    },
    { requestThrottle },
  );
}
