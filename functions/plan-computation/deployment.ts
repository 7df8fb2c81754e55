import type { GroupDeployment } from '../group-deployment';

/**
 * The one function that carries the plan engine and the catalog for plans: the engine's memory
 * (CPU), the plan items only, and its own bound under the serving functions' timeout, so that a
 * computation that runs out of time answers them an error rather than outliving their request.
 */
export const deployment: GroupDeployment = {
  memory: 'planEngine',
  timeoutSeconds: 25,
  tableItems: 'plans',
  grants: [],
};
