import * as z from 'zod/mini';
import { chartQuery, chartResponse } from '../chart';
import type { OperationList } from '../operation-contract';
import { lineItemsQuery, providerQuery, resourceMatchesQuery } from '../plan-queries';
import { commitmentPlan, lineItem } from '../plans';
import { resourceMatch } from '../resource-matches';
import { orgPath, planPath } from './path-params';

/** Commitment plans (#5, #6), their line items (#7) and resource matches (#9), and the commitments chart (#10). */
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
    responses: { 200: z.array(commitmentPlan) },
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
    responses: { 200: z.array(lineItem) },
    paginated: true,
  },
  listPlanResourceMatches: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/resource-matches',
    group: 'plans',
    summary: 'How a commitment plan covers individual resources',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: planPath,
    query: resourceMatchesQuery,
    responses: { 200: z.array(resourceMatch) },
    paginated: true,
    conflicts: true,
  },
  getCommitmentsChart: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitments/chart',
    group: 'plans',
    summary: 'Commitment, utilization and savings over time (default: the last 30 days)',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: orgPath,
    query: chartQuery,
    responses: { 200: chartResponse },
  },
} satisfies OperationList;
