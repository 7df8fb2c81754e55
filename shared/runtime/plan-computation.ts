import { residualArena } from '../domain/engine/groups/residual-arena';
import {
  catalogRepository,
  commitmentRepository,
  computedPlanRepository,
  orgRepository,
  planRepository,
  purchaseRepository,
  usageRepository,
} from '../store/store';
import { awsFunctionContext } from './function-context';

/**
 * The plan-computation function on AWS: the repositories plan computation reads and writes on the
 * service's table, and the engine's memory, kept for the container as a warm function computes
 * plan after plan; built on the first invocation.
 */
export const awsPlanComputationContext = awsFunctionContext(
  {
    orgs: orgRepository,
    usage: usageRepository,
    commitments: commitmentRepository,
    plans: planRepository,
    computedPlans: computedPlanRepository,
    purchases: purchaseRepository,
    catalog: catalogRepository,
  },
  { engineMemory: residualArena },
);
