import type { AppContext, Marketplace } from '../shared/app/ports';
import { isGuaranteedOffer } from '../shared/app/ports/marketplace';
import { azureMarketplace, marketplaceByProvider } from '../shared/cloud/marketplace/azure-marketplace';
import { loadCatalog } from '../shared/domain/catalog/catalog';
import { azureBuyerOf } from '../shared/runtime/azure-marketplace-environment';
import { localAzureClientId } from './local-onboarding';
import type { SimulatedArmOptions } from './simulated-arm';
import { catalogArmPrices } from './simulated-arm-orders';
import {
  armFetchOf,
  simulatedArmOnFile,
  simulatedArmPath,
  simulatedArmTokens,
} from './simulated-arm-service';

/** The simulated tenant's ARM under `dir`: the local app's client id, prices from the bundled catalog. */
export function localArmOptions(): SimulatedArmOptions {
  const prices = catalogArmPrices(loadCatalog());
  return { clientId: localAzureClientId, prices, now: Date.now };
}

/**
 * What the local processor buys from (docs/purchases.md, Locally): Azure lines through the real
 * `azure` marketplace against the simulated tenant's ARM, everything else (guaranteed Azure offers
 * included) from `otherwise` (the simulated marketplace). Served by the local server (`baseUrl()`: its address once listening),
 * the adapter calls it over HTTP; in a CLI process without a server, ARM answers in-process.
 */
export function localMarketplace(
  dir: string,
  ctx: AppContext,
  baseUrl: () => string | null,
  otherwise: Marketplace,
): Marketplace {
  let azure: Marketplace | null = null;
  const azureOf = (): Marketplace => {
    if (azure) return azure;
    const served = baseUrl();
    azure = azureMarketplace({
      armTokens: simulatedArmTokens(dir, localAzureClientId),
      buyerOf: azureBuyerOf(ctx),
      ...(served
        ? { armEndpoint: `${served}${simulatedArmPath}` }
        : {
            armEndpoint: 'http://simulated-arm.invalid',
            fetch: armFetchOf(simulatedArmOnFile(dir, localArmOptions())),
          }),
    });
    return azure;
  };
  // Guaranteed (leased) offers are the service's own to fulfil: the simulated marketplace does.
  const azureLines: Marketplace = {
    purchase: (request) => (isGuaranteedOffer(request.offer) ? otherwise : azureOf()).purchase(request),
  };
  return marketplaceByProvider({ azure: azureLines }, otherwise);
}
