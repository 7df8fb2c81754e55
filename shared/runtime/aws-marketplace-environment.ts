import type { Marketplace } from '../app/ports';
import { accountRoleMarketplace } from '../cloud/marketplace/account-role-marketplace';

/**
 * The aws processor's marketplace (`-c marketplace=aws`): `MARKETPLACE_ROLE_ARN` names the
 * customer role (`{account_id}` stands for the buying account), whose trust policy requires the
 * org's own ExternalId, read from its onboarding record at each purchase.
 */
export function awsMarketplaceFromEnvironment(
  env: NodeJS.ProcessEnv,
  externalIdOf: (orgId: string) => Promise<string | null>,
): Marketplace {
  if (env.MARKETPLACE !== 'aws') {
    throw new Error(`MARKETPLACE is ${env.MARKETPLACE ?? 'unset'}, but this processor buys from aws`);
  }
  const roleArnTemplate = env.MARKETPLACE_ROLE_ARN;
  if (!roleArnTemplate) throw new Error('MARKETPLACE=aws needs MARKETPLACE_ROLE_ARN');
  return accountRoleMarketplace({ roleArnTemplate, externalIdOf });
}
