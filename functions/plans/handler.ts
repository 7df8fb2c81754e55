import { awsPlanServingContext } from '../../shared/runtime/plan-serving-context';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createPlansHandler } from './plans-handler';

export const handler = createPlansHandler(awsPlanServingContext, awsRequestThrottle);
