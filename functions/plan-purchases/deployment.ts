import { type GroupDeployment, underIntegrationTimeoutSeconds } from '../group-deployment';

/**
 * Applies plans (#8, #13): it sends their purchases to the queue. It waits for the plan-computation
 * function, invoked synchronously, for the catalog's terms of the offers bought and for the
 * successor of an outdated plan, named in the refusal (best effort): a timeout under API Gateway's.
 */
export const deployment: GroupDeployment = {
  memory: 'service',
  timeoutSeconds: underIntegrationTimeoutSeconds,
  tableItems: 'all',
  grants: ['sendPurchases', 'invokePlanComputation'],
};
