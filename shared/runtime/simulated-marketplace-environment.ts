import type { Marketplace } from '../app/ports';
import { SimulatedMarketplace } from '../cloud/marketplace/simulated-marketplace';

/**
 * The default processor's marketplace: simulated, so a fresh deployment buys nothing. This entry
 * carries no purchase client; an environment that asks for another marketplace was deployed with
 * the wrong entry, and the processor stops rather than pretend to buy.
 */
export function simulatedMarketplaceFromEnvironment(env: NodeJS.ProcessEnv): Marketplace {
  const kind = env.MARKETPLACE ?? 'simulated';
  if (kind !== 'simulated') {
    throw new Error(
      `MARKETPLACE is ${kind}, but this processor is the simulated one: deploy with -c marketplace=aws for the aws processor`,
    );
  }
  return new SimulatedMarketplace();
}
