import type { AzureUsageSources } from '../app/ports/usage-sync';
import { azureUsageSources } from '../cloud/usage-sources/azure-usage-sources';
import { clientSecretTokens, storageScope } from '../cloud/verifiers/azure-arm-probe';
import { ProviderError } from '../cloud/verifiers/provider-failure';
import { secretsManagerSecret } from './secrets-manager-secret';

/**
 * The customers' Azure subscriptions as a deployed usage sync reads them (docs/usage-sync.md):
 * with the service's Entra application, `AZURE_CLIENT_ID` and its client secret read from Secrets
 * Manager at `AZURE_CLIENT_SECRET_ARN`, one token for ARM and one for Blob Storage. Without them
 * an Azure sync fails saying Azure is not configured.
 */
export function azureUsageSourcesFromEnvironment(env: NodeJS.ProcessEnv): AzureUsageSources {
  const clientId = env.AZURE_CLIENT_ID;
  const secretArn = env.AZURE_CLIENT_SECRET_ARN;
  if (!clientId || !secretArn) {
    return {
      connect: () =>
        Promise.reject(
          new ProviderError(
            'NotConfigured',
            'Azure is not configured in this deployment (AZURE_CLIENT_ID and AZURE_CLIENT_SECRET_ARN)',
          ),
        ),
    };
  }
  const clientSecret = secretsManagerSecret(secretArn);
  return azureUsageSources({
    armTokens: clientSecretTokens({ clientId, clientSecret }),
    storageTokens: clientSecretTokens({ clientId, clientSecret, scope: storageScope }),
  });
}
