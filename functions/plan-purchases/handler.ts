import { awsPlanPurchasesContext } from '../../shared/runtime/plan-purchases';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createPlanPurchasesHandler } from './plan-purchases-handler';

export const handler = createPlanPurchasesHandler(awsPlanPurchasesContext, awsRequestThrottle);
