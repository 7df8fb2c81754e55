import type { GroupDeployment } from '../group-deployment';

/** Registers clients, each with a key in the tenants' usage plan: the only function that may add one. */
export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'all',
  grants: ['registerClientThrottles'],
};
