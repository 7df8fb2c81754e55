import type { GroupDeployment } from '../group-deployment';

/**
 * Applies plans (#8, #13): it sends their purchases to the queue, and computes the successor of an
 * outdated plan to name it in the refusal (best effort).
 */
export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'all',
  grants: ['sendPurchases', 'invokePlanComputation'],
};
