import * as z from 'zod/mini';
import type { OperationList } from '../operation-contract';
import { resourceMatchesQuery } from '../plan-queries';
import { resourceMatch } from '../resource-matches';
import { planPath } from './path-params';

/**
 * How a plan's line items cover each resource (#9): it runs part of the plan engine on stored
 * usage in the request, so it has a function of its own and the plans function (#5, #6, #7) does
 * not carry that code. The chart (#10), which runs another part, is in ./commitments-chart.ts.
 */
export const planCoverageOperations = {
  listPlanResourceMatches: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/resource-matches',
    group: 'plan-coverage',
    summary: 'How a commitment plan covers individual resources',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: planPath,
    query: resourceMatchesQuery,
    responses: { 200: z.lazy(() => z.array(resourceMatch)) },
    paginated: true,
    conflicts: true,
  },
} satisfies OperationList;
