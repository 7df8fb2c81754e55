import * as z from 'zod/mini';
import { chartQuery, chartResponse } from '../chart';
import type { OperationList } from '../operation-contract';
import { resourceMatchesQuery } from '../plan-queries';
import { resourceMatch } from '../resource-matches';
import { orgPath, planPath } from './path-params';

/**
 * How a plan's line items cover each resource (#9) and the commitments chart (#10): both run
 * part of the plan engine on stored usage in the request, so they have a function of their own
 * and the plans function (#5, #6, #7) does not carry that code.
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
  getCommitmentsChart: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitments/chart',
    group: 'plan-coverage',
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
