import type { AzureVerifier } from '../app/ports';
import { azureArmProbe, clientSecretTokens } from '../cloud/verifiers/azure-arm-probe';
import { type AzureTenantProbe, runAzureChecks } from '../cloud/verifiers/azure-verification';
import { ProviderError } from '../cloud/verifiers/provider-failure';
import { onboardingRepository, orgRepository } from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { secretsManagerSecret } from './secrets-manager-secret';

const repositories = awsFunctionContext({ onboarding: onboardingRepository, orgs: orgRepository });

/**
 * What the Azure verification function runs with (docs/onboarding.md): ARM's REST API with tokens of the
 * service's application from the Microsoft identity platform. Built on the first
 * invocation; the local server and tests hand theirs (the simulated cloud) to the function's
 * factory.
 *
 * - `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET_ARN` (optional): the service's multi-tenant Entra
 *   application and the Secrets Manager secret holding its client secret; without them every
 *   Azure check says verification is not configured.
 */
export const awsOnboardingAzureVerifyContext = onFirstUse(() => ({
  ...repositories(),
  verifier: azureVerifierFromEnvironment(process.env),
}));

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
