import { inviteChildOrgUsers, registerChildOrg } from '../../shared/app/partner-orgs';
import { partnerOrgOperations } from '../../shared/contract/operations/partner-orgs';
import { membershipView, registeredOrganizationView } from '../../shared/contract/organization-views';
import { createGroupHandler } from '../../shared/http/group-handler';
import { jsonBodies } from '../../shared/http/request-bodies';
import { functionContext } from '../../shared/runtime/current';
import {
  membershipRepository,
  orgRepository,
  orgUpdateRepository,
  userRepository,
} from '../../shared/store/store';
import { toChildOrgRegistration } from './registration-forms';

/** The repositories this function's use cases read and write; it bundles no other. */
const appContext = functionContext({
  orgs: orgRepository,
  orgUpdates: orgUpdateRepository,
  memberships: membershipRepository,
  users: userRepository,
});
/** Partners registering their customer orgs (#14) and inviting the customers' users (#15). */
export const handler = createGroupHandler(
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
  { bodies: jsonBodies },
);
