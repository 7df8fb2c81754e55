import type { GroupDeployment } from '../group-deployment';

/** Publishes the public keys and the OAuth documents: no table access at all. */
export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'none',
  grants: ['readPublicKeys'],
};
