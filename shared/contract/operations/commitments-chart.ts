import { chartQuery, chartResponse } from '../chart';
import type { OperationList } from '../operation-contract';
import { orgPath } from './path-params';

/**
 * The commitments chart (#10): it runs the engine's chart on stored usage in the request, in a
 * function of its own, apart from resource matches (./plan-coverage.ts), so that neither carries
 * the other's code (docs/benchmarks.md, Cold start).
 */
export const commitmentsChartOperations = {
  getCommitmentsChart: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitments/chart',
    group: 'commitments-chart',
    summary: 'Commitment, utilization and savings over time (default: the last 30 days)',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: orgPath,
    query: chartQuery,
    responses: { 200: chartResponse },
    alsoAnswersAs: ['image/svg+xml'],
  },
} satisfies OperationList;
