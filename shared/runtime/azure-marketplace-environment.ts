import type { ContextWith, Marketplace } from '../app/ports';
import { type AzureBuyer, azureMarketplace } from '../cloud/marketplace/azure-marketplace';
import { clientSecretTokens } from '../cloud/verifiers/azure-arm-probe';
import { secretsManagerSecret } from './secrets-manager-secret';

/**
 * The tenant an org buys its Azure commitments in: the one its onboarding connected, once the
 * tenant's administrator consented (a plan's lines name the tenant's subscriptions its usage came
 * from; ARM refuses one the app may not buy in); and whether its commitments apply to the buying
 * subscription alone (the org's sharing `account`). Null: no consented tenant.
 */
export function azureBuyerOf(ctx: ContextWith<'onboarding' | 'orgs'>) {
  return async (orgId: string, _subscriptionId: string): Promise<AzureBuyer | null> => {
    const azure = (await ctx.repos.onboarding.get(orgId))?.azure;
    if (!azure?.consent?.granted) return null;
    const org = await ctx.repos.orgs.get(orgId);
    return { tenantId: azure.tenantId, single: org?.commitmentSharing === 'account' };
  };
}

/**
 * The deployed processor's Azure marketplace (`MARKETPLACE=aws`): the service's Entra application,
 * `AZURE_CLIENT_ID` with its client secret read from Secrets Manager at `AZURE_CLIENT_SECRET_ARN`.
 * Null without them: Azure lines are then left to an operator (`manual`), as before.
 */
export function azureMarketplaceFromEnvironment(
  env: NodeJS.ProcessEnv,
  ctx: ContextWith<'onboarding' | 'orgs'>,
): Marketplace | null {
  const clientId = env.AZURE_CLIENT_ID;
  const secretArn = env.AZURE_CLIENT_SECRET_ARN;
  if (!clientId || !secretArn) return null;
  return azureMarketplace({
    armTokens: clientSecretTokens({ clientId, clientSecret: secretsManagerSecret(secretArn) }),
    buyerOf: azureBuyerOf(ctx),
  });
}
