import { awsPlanServingContext } from '../../shared/runtime/plan-serving-context';
import { createPartnerPurchasePlansHandler } from './partner-purchase-plans-handler';

export const handler = createPartnerPurchasePlansHandler(awsPlanServingContext);
