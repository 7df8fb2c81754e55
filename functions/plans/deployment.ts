import { type GroupDeployment, underIntegrationTimeoutSeconds } from '../group-deployment';

/**
 * Serves plans (#5, #6, #7) and, on a stale read, waits for the plan-computation function,
 * invoked synchronously: the plan items only, and a timeout under API Gateway's.
 */
export const deployment: GroupDeployment = {
  memory: 'service',
  timeoutSeconds: underIntegrationTimeoutSeconds,
  tableItems: 'plans',
  grants: ['invokePlanComputation'],
};
