import { listPlanResourceMatches, type ResourceMatchContext } from '../../shared/app/plan-resource-matches';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { planCoverageOperations } from '../../shared/contract/operations/plan-coverage';
import { resourceMatchSortKeys, resourceMatchView } from '../../shared/contract/plan-views';
import { createGroupHandler } from '../../shared/http/group-handler';
import { withHeaders } from '../../shared/http/operation';
import { paginate, paginationHeaderName } from '../../shared/http/pagination';

/** How a plan covers each resource (#9); the chart (#10) is the commitments-chart function's. */
export function createPlanCoverageHandler(
  appContext: () => ResourceMatchContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    planCoverageOperations,
    {
      listPlanResourceMatches: async ({ principal, pathParams, query }) => {
        const matches = await listPlanResourceMatches(
          appContext(),
          principal,
          pathParams.org_id,
          pathParams.plan_id,
          {
            startDate: query.start_date,
            endDate: query.end_date,
            lineItemIds: query.line_item_ids,
            order: {
              key: query.order_by === null ? null : resourceMatchSortKeys[query.order_by],
              descending: query.desc,
            },
          },
        );
        const page = paginate(matches, { page: query.page, pageSize: query.page_size });
        return withHeaders(page.items.map(resourceMatchView), { [paginationHeaderName]: page.header });
      },
    },
    { requestThrottle },
  );
}
