import type { AzureVerifier } from '../app/ports';
import { azureArmProbe, clientSecretTokens } from '../cloud/verifiers/azure-arm-probe';
import { type AzureTenantProbe, runAzureChecks } from '../cloud/verifiers/azure-verification';
import { ProviderError } from '../cloud/verifiers/provider-failure';
import { installable } from './installable';
import { secretsManagerSecret } from './secrets-manager-secret';

/**
 * What the Azure verification function runs with (DESIGN §11): ARM's REST API with tokens of the
 * service's application from the Microsoft identity platform. The local runtime and tests install
 * theirs (the simulated cloud) first.
 *
 * - `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET_ARN` (optional): the service's multi-tenant Entra
 *   application and the Secrets Manager secret holding its client secret; without them every
 *   Azure check says verification is not configured.
 */
const verifier = installable(() => azureVerifierFromEnvironment(process.env));

export const installAzureVerifier = verifier.install;
export const azureVerifier = verifier.get;

export function azureVerifierFromEnvironment(env: NodeJS.ProcessEnv): AzureVerifier {
  const clientId = env.AZURE_CLIENT_ID;
  const secretArn = env.AZURE_CLIENT_SECRET_ARN;
  const probe: AzureTenantProbe =
    clientId && secretArn
      ? azureArmProbe({
          tokens: clientSecretTokens({
            clientId,
            clientSecret: secretsManagerSecret(secretArn),
          }),
        })
      : unconfiguredAzure;
  return { verifyAzure: (request) => runAzureChecks(probe, request) };
}

/** Without the app's credentials (context azureClientId and azureClientSecretArn), every Azure check says so. */
const unconfiguredAzure: AzureTenantProbe = {
  signIn: () =>
    Promise.reject(
      new ProviderError(
        'NotConfigured',
        'Azure verification is not configured in this deployment (AZURE_CLIENT_ID and AZURE_CLIENT_SECRET_ARN)',
      ),
    ),
};
