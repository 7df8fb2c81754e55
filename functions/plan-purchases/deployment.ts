import type { GroupDeployment } from '../group-deployment';

/** Applies plans (#8, #13): it sends their purchases to the queue. */
export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'all',
  grants: ['sendPurchases'],
};
