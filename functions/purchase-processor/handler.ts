import { awsPurchaseProcessorContext } from '../../shared/runtime/purchase-processor';
import { simulatedMarketplaceFromEnvironment } from '../../shared/runtime/simulated-marketplace-environment';
import { createPurchaseProcessorHandler } from './purchase-processor-handler';

/** The purchase processor of a default deployment: it buys from the simulated marketplace. */
export const handler = createPurchaseProcessorHandler(
  awsPurchaseProcessorContext(simulatedMarketplaceFromEnvironment),
);
