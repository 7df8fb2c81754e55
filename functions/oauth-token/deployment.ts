import type { GroupDeployment } from '../group-deployment';

/** Issues access tokens: the only function that may sign with the KMS key. */
export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'all',
  grants: ['signTokens'],
};
