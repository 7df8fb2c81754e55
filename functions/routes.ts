/**
 * The route manifest: the single list of HTTP routes the service serves.
 *
 * The CDK API stack and the local server (bin/serve.ts) both read it, so the deployed API and the
 * local one cannot drift. A route names its function group (one Lambda per group, entry
 * `functions/<group>/handler.ts`) and the operation id the group's handler dispatches on.
 * Paths use API Gateway's template syntax (`{name}`), exactly as the interface spec writes them.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type FunctionGroup = 'openapi' | 'partner-orgs' | 'partner-settings';

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
    method: 'PATCH',
    path: '/v2/org/{org_id}/partners',
    group: 'partner-settings',
    operationId: 'updatePartnerSettings',
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
