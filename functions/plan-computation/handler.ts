import { awsPlanComputationContext } from '../../shared/runtime/plan-computation';
import { createPlanComputationHandler } from './plan-computation-handler';

export const handler = createPlanComputationHandler(awsPlanComputationContext);
