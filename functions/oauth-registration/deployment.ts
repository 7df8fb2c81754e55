import type { GroupDeployment } from '../group-deployment';

/**
 * Registers clients: it stores them, and touches no API Gateway key (all OAuth clients share the
 * one the stack creates).
 */
export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'all',
  grants: [],
};
