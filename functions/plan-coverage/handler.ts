import { awsPlanCoverageContext } from '../../shared/runtime/plan-coverage';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createPlanCoverageHandler } from './plan-coverage-handler';

export const handler = createPlanCoverageHandler(awsPlanCoverageContext, awsRequestThrottle);
