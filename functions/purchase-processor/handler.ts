import { simulatedMarketplaceFromEnvironment } from '../../shared/runtime/simulated-marketplace-environment';
import { purchaseProcessorHandler } from './processor';

/** The purchase processor of a default deployment: it buys from the simulated marketplace. */
export const handler = purchaseProcessorHandler(simulatedMarketplaceFromEnvironment);
