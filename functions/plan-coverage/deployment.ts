import { type GroupDeployment, underIntegrationTimeoutSeconds } from '../group-deployment';

/**
 * Runs the plan engine in the request (resource matches over part of a lookback, the chart): the
 * engine's memory (CPU), the plan items only, and a timeout under API Gateway's.
 */
export const deployment: GroupDeployment = {
  memory: 'planEngine',
  timeoutSeconds: underIntegrationTimeoutSeconds,
  tableItems: 'plans',
  grants: [],
};
