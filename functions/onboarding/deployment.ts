import type { GroupDeployment } from '../group-deployment';

export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'all',
  grants: [],
};
