import type { GroupDeployment } from '../group-deployment';

/** Its secrets and the onboarding settings come from the API stack's OnboardingSettings. */
export const deployment: GroupDeployment = {
  memory: 'service',
  tableItems: 'all',
  grants: [],
};
