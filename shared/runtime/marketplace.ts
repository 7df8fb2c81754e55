import { bundledCatalog } from '../app/bundled-catalog';
import type { ProcessorContext } from '../app/purchase-processing';
import type { Marketplace } from '../cloud/marketplace/marketplace';
import { SimulatedMarketplace } from '../cloud/marketplace/simulated-marketplace';
import { appContext } from './current';

/**
 * The marketplace the purchase processor buys from (DESIGN §9): `simulated` unless the operator
 * sets `MARKETPLACE=aws`, so a fresh deployment buys nothing. With `aws`,
 * `MARKETPLACE_ROLE_ARN` names the customer role (`{account_id}` stands for the buying account),
 * whose trust policy requires the org's own ExternalId: read from its onboarding record at each
 * purchase. The local runtime and tests install theirs first.
 */
let installed: Marketplace | undefined;

export function installMarketplace(marketplace: Marketplace): void {
  installed = marketplace;
}

export function marketplace(): Marketplace {
  installed ??= marketplaceFromEnvironment(process.env);
  return installed;
}

export type MarketplaceKind = 'simulated' | 'aws';

export function marketplaceFromEnvironment(
  env: NodeJS.ProcessEnv,
  externalIdOf: (orgId: string) => Promise<string | null> = onboardedExternalId,
): Marketplace {
  const kind = env.MARKETPLACE ?? 'simulated';
  if (kind === 'simulated') return new SimulatedMarketplace();
  if (kind !== 'aws') throw new Error(`MARKETPLACE must be simulated or aws, not ${kind}`);
  const roleArnTemplate = env.MARKETPLACE_ROLE_ARN;
  if (!roleArnTemplate) throw new Error('MARKETPLACE=aws needs MARKETPLACE_ROLE_ARN');
  // Loaded on the first purchase: the EC2, RDS and Savings Plans clients are most of the
  // processor's bundle, and a simulated deployment never runs them.
  let aws: Promise<Marketplace> | undefined;
  return {
    async purchase(request) {
      aws ??= import('../cloud/marketplace/account-role-marketplace').then((module) =>
        module.accountRoleMarketplace({ roleArnTemplate, externalIdOf }),
      );
      return (await aws).purchase(request);
    },
  };
}

/** The org's ExternalId from its onboarding record; null before it started onboarding. */
async function onboardedExternalId(orgId: string): Promise<string | null> {
  return (await appContext().repos.onboarding.get(orgId))?.externalId ?? null;
}

/** What the purchase processor runs with. */
export function processorContext(): ProcessorContext {
  return { ...appContext(), marketplace: marketplace(), catalog: bundledCatalog };
}
