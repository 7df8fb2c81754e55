import { type ChartContext, commitmentsChart } from '../../shared/app/commitments-chart';
import { listPlanResourceMatches, type ResourceMatchContext } from '../../shared/app/plan-resource-matches';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { planCoverageOperations } from '../../shared/contract/operations/plan-coverage';
import { chartView, resourceMatchSortKeys, resourceMatchView } from '../../shared/contract/plan-views';
import { renderChartSvg } from '../../shared/domain/chart/chart-svg';
import { chartPictureHeaders, wantsPicture } from '../../shared/http/chart-picture';
import { createGroupHandler } from '../../shared/http/group-handler';
import { RawResponse, withHeaders } from '../../shared/http/operation';
import { paginate, paginationHeaderName } from '../../shared/http/pagination';

/** What the plan-coverage function runs with: the repositories and reads its use cases name. */
export type PlanCoverageContext = ChartContext & ResourceMatchContext;

/** How a plan covers each resource (#9), and the commitments chart (#10). */
export function createPlanCoverageHandler(
  appContext: () => PlanCoverageContext,
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

      getCommitmentsChart: async ({ principal, pathParams, query, headers }) => {
        const points = await commitmentsChart(appContext(), principal, pathParams.org_id, {
          provider: query.provider,
          criteria: query.filter ?? [],
          startDate: query.start_date,
          endDate: query.end_date,
        });
        if (!wantsPicture(query.format, headers.accept)) return chartView(points);
        const scope = query.provider ?? 'all providers';
        return new RawResponse(200, chartPictureHeaders, renderChartSvg(points, { scope }));
      },
    },
    { requestThrottle },
  );
}
