import * as z from 'zod/mini';
import type { OperationList } from '../operation-contract';
import { commitmentPlan } from '../plans';
import { purchasePlan, purchasePlanBody } from '../purchase-plans';
import { purchaseRecord, purchasesQuery } from '../purchases';
import { planPath } from './path-params';

/**
 * Applying a plan (#8) and purchasing one on behalf of a user (#13): the money-moving operations;
 * and reading what they did (extensions): the plan by id, and its purchases.
 */
export const planPurchaseOperations = {
  applyCommitmentPlan: {
    method: 'POST',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/apply',
    group: 'plan-purchases',
    summary: 'Apply a commitment plan: record the user and queue its purchases',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:apply',
    pathParams: planPath,
    responses: { 200: commitmentPlan },
    idempotent: true,
    conflicts: true,
  },
  purchasePlan: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/purchase-plans-v2/{plan_id}/purchase',
    group: 'plan-purchases',
    summary: "Purchase a plan for a user of the organization, creating the user's membership if needed",
    tag: 'Partners',
    public: false,
    scope: 'plans:apply',
    pathParams: planPath,
    body: purchasePlanBody,
    responses: { 200: purchasePlan },
    idempotent: true,
    conflicts: true,
  },
  getCommitmentPlan: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}',
    group: 'plan-purchases',
    summary: 'A commitment plan by id (extension): poll it after applying',
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: planPath,
    responses: { 200: commitmentPlan },
  },
  listPlanPurchases: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/purchases',
    group: 'plan-purchases',
    summary: "A plan's purchases, one per applied line item (extension)",
    tag: 'Commitment plans',
    public: false,
    scope: 'plans:read',
    pathParams: planPath,
    query: purchasesQuery,
    responses: { 200: z.lazy(() => z.array(purchaseRecord)) },
    paginated: true,
  },
} satisfies OperationList;
