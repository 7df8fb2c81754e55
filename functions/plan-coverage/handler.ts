import { awsPlanCoverageContext } from '../../shared/runtime/plan-coverage';
import { createPlanCoverageHandler } from './plan-coverage-handler';

export const handler = createPlanCoverageHandler(awsPlanCoverageContext);
