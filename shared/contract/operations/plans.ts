import * as z from 'zod/mini';
import type { OperationList } from '../operation-contract';
import { lineItemsQuery, providerQuery } from '../plan-queries';
import { commitmentPlan, lineItem } from '../plans';
import { orgPath, planPath } from './path-params';

/**
 * Commitment plans (#5, #6) and their line items (#7): stored plans, computed in the request when
 * missing or stale. How plans cover resources and the chart are in ./plan-coverage.ts.
 */
export const planOperations = {
  getRecommendedCommitmentPlan: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/recommended',
    group: 'plans',
    summary: 'The recommended commitment plan for a provider; 204 when there is none',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: orgPath,
    query: providerQuery,
    responses: { 200: commitmentPlan, 204: null },
  },
  listDefaultCommitmentPlans: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/default',
    group: 'plans',
    summary: 'The default commitment plans for a provider',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: orgPath,
    query: providerQuery,
    responses: { 200: z.lazy(() => z.array(commitmentPlan)) },
  },
  listPlanLineItems: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/line-items',
    group: 'plans',
    summary: 'The line items of a commitment plan',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: planPath,
    query: lineItemsQuery,
    responses: { 200: z.lazy(() => z.array(lineItem)) },
    paginated: true,
  },
} satisfies OperationList;
