import { awsPlanPurchasesContext } from '../../shared/runtime/plan-purchases';
import { createPlanPurchasesHandler } from './plan-purchases-handler';

export const handler = createPlanPurchasesHandler(awsPlanPurchasesContext);
