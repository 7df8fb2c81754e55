import { type GroupDeployment, underIntegrationTimeoutSeconds } from '../group-deployment';

/**
 * Runs the engine's chart in the request over the org's stored usage: the engine's memory (CPU),
 * the plan items only, and a timeout under API Gateway's.
 */
export const deployment: GroupDeployment = {
  memory: 'planEngine',
  timeoutSeconds: underIntegrationTimeoutSeconds,
  tableItems: 'plans',
  grants: [],
};
