import { type ChartContext, commitmentsChart } from '../../shared/app/commitments-chart';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { commitmentsChartOperations } from '../../shared/contract/operations/commitments-chart';
import { chartView } from '../../shared/contract/plan-views';
import { renderChartSvg } from '../../shared/domain/chart/chart-svg';
import { chartPictureHeaders, wantsPicture } from '../../shared/http/chart-picture';
import { createGroupHandler } from '../../shared/http/group-handler';
import { RawResponse } from '../../shared/http/operation';

/** The commitments chart (#10), as JSON points or as a picture. */
export function createCommitmentsChartHandler(
  appContext: () => ChartContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    commitmentsChartOperations,
    {
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
