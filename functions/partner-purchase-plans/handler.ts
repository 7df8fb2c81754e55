import { awsPlanServingContext } from '../../shared/runtime/plan-serving-context';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createPartnerPurchasePlansHandler } from './partner-purchase-plans-handler';

export const handler = createPartnerPurchasePlansHandler(awsPlanServingContext, awsRequestThrottle);
