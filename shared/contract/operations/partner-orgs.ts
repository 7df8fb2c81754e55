import * as z from 'zod/mini';
import { registerChildOrgBody } from '../child-org-registration';
import type { OperationList } from '../operation-contract';
import { inviteUsersBody, membership, registeredOrganization } from '../partners';
import { childOrgPath, partnerPath } from './path-params';

/** Child orgs a partner registers (#14) and their invited users (#15). */
export const partnerOrgOperations = {
  registerChildOrg: {
    method: 'POST',
    path: '/v2/partners/{partner_org_id}/orgs',
    group: 'partner-orgs',
    summary: 'Register a customer (child) organization of the partner',
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: partnerPath,
    body: registerChildOrgBody,
    responses: { 200: registeredOrganization },
    conflicts: true,
  },
  inviteChildOrgUsers: {
    method: 'POST',
    path: '/v2/partners/{partner_org_id}/orgs/{child_org_id}/invites',
    group: 'partner-orgs',
    summary: 'Make users members of a child organization',
    tag: 'Partners',
    public: false,
    scope: 'org:write',
    pathParams: childOrgPath,
    body: inviteUsersBody,
    responses: { 200: z.lazy(() => z.array(membership)) },
  },
} satisfies OperationList;
