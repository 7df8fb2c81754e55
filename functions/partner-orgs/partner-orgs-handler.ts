import { inviteChildOrgUsers, registerChildOrg } from '../../shared/app/partner-orgs';
import type { ContextWith } from '../../shared/app/ports';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { partnerOrgOperations } from '../../shared/contract/operations/partner-orgs';
import { membershipView, registeredOrganizationView } from '../../shared/contract/organization-views';
import { createGroupHandler } from '../../shared/http/group-handler';
import { jsonBodies } from '../../shared/http/request-bodies';
import { toChildOrgRegistration } from './registration-forms';

/** What the partner-orgs function runs with: the repositories its use cases read and write. */
export type PartnerOrgsContext = ContextWith<'orgs' | 'orgUpdates' | 'memberships' | 'users'>;

/** Partners registering their customer orgs (#14) and inviting the customers' users (#15). */
export function createPartnerOrgsHandler(
  appContext: () => PartnerOrgsContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    partnerOrgOperations,
    {
      registerChildOrg: async ({ principal, pathParams, body }) => {
        const registration = toChildOrgRegistration(body);
        const { org, memberships } = await registerChildOrg(
          appContext(),
          principal,
          pathParams.partner_org_id,
          registration,
        );
        return registeredOrganizationView(org, memberships);
      },

      inviteChildOrgUsers: async ({ principal, pathParams, body }) => {
        const invites = body.users.map((user) => ({ email: user.email, role: user.role, name: null }));
        const memberships = await inviteChildOrgUsers(
          appContext(),
          principal,
          pathParams.partner_org_id,
          pathParams.child_org_id,
          invites,
        );
        return memberships.map(membershipView);
      },
    },
    { bodies: jsonBodies, requestThrottle },
  );
}
