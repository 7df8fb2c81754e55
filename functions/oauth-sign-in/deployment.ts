import type { GroupDeployment } from '../group-deployment';

/** Mails sign-in codes: the only function that may send with SES. */
export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'all',
  grants: ['sendSignInMail'],
};
