import { membershipRepository, orgRepository, orgUpdateRepository, userRepository } from '../store/store';
import { awsFunctionContext } from './function-context';

/** The partner-orgs function on AWS: its repositories on the service's table, built on the first invocation. */
export const awsPartnerOrgsContext = awsFunctionContext({
  orgs: orgRepository,
  orgUpdates: orgUpdateRepository,
  memberships: membershipRepository,
  users: userRepository,
});
