/**
 * The route manifest: the single list of HTTP routes the service serves.
 *
 * The CDK API stack and the local server (bin/serve.ts) both read it, so the deployed API and the
 * local one cannot drift. A route names its function group (one Lambda per group, entry
 * `functions/<group>/handler.ts`) and the operation id the group's handler dispatches on.
 * Paths use API Gateway's template syntax (`{name}`), exactly as the interface spec writes them.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type FunctionGroup =
  | 'openapi'
  | 'partner-orgs'
  | 'partner-purchase-plans'
  | 'partner-settings'
  | 'plans';

export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
  readonly group: FunctionGroup;
  readonly operationId: string;
  /** Public routes are served without the authorizer. */
  readonly public?: true;
}

export const routes: readonly Route[] = [
  { method: 'GET', path: '/openapi.json', group: 'openapi', operationId: 'getOpenApiDocument', public: true },
  {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/recommended',
    group: 'plans',
    operationId: 'getRecommendedCommitmentPlan',
  },
  {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/default',
    group: 'plans',
    operationId: 'listDefaultCommitmentPlans',
  },
  {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/line-items',
    group: 'plans',
    operationId: 'listPlanLineItems',
  },
  {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/resource-matches',
    group: 'plans',
    operationId: 'listPlanResourceMatches',
  },
  {
    method: 'GET',
    path: '/v1/org/{org_id}/commitments/chart',
    group: 'plans',
    operationId: 'getCommitmentsChart',
  },
  {
    method: 'PATCH',
    path: '/v2/org/{org_id}/partners',
    group: 'partner-settings',
    operationId: 'updatePartnerSettings',
  },
  {
    method: 'GET',
    path: '/v2/org/{org_id}/partners/purchase-plans-v2/recommended',
    group: 'partner-purchase-plans',
    operationId: 'getRecommendedPurchasePlan',
  },
  {
    method: 'POST',
    path: '/v2/partners/{partner_org_id}/orgs',
    group: 'partner-orgs',
    operationId: 'registerChildOrg',
  },
  {
    method: 'POST',
    path: '/v2/partners/{partner_org_id}/orgs/{child_org_id}/invites',
    group: 'partner-orgs',
    operationId: 'inviteChildOrgUsers',
  },
];

export const functionGroups: readonly FunctionGroup[] = [...new Set(routes.map((route) => route.group))];
