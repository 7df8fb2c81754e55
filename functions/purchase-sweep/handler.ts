import { awsPurchaseSweepContext } from '../../shared/runtime/purchase-sweep';
import { createPurchaseSweepHandler } from './purchase-sweep-handler';

export const handler = createPurchaseSweepHandler(awsPurchaseSweepContext);
