import { type GroupDeployment, underIntegrationTimeoutSeconds } from '../group-deployment';

/**
 * Waits on a customer's cloud (several provider calls, the SDK's retries), up to just under API
 * Gateway's integration timeout.
 */
export const deployment: GroupDeployment = {
  memory: 'service',
  timeoutSeconds: underIntegrationTimeoutSeconds,
  tableItems: 'all',
  grants: [],
};
