import type { TenantSignIn } from '../app/ports/azure-tenants';
import { entraSignIn } from '../cloud/identity/entra-sign-in';
import { TenantSignInError } from '../domain/onboarding/tenant-sign-in-error';
import { azureTenantRepository, onboardingRepository, orgRepository } from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { microsoftAuthority, type OnboardingRuntime, onboardingFromEnvironment } from './onboarding';
import { secretsManagerSecret } from './secrets-manager-secret';

/**
 * What the Azure consent's callback runs with (docs/onboarding.md, Azure consent): the onboarding
 * function's settings (the same environment: the secret that signs and checks the consent
 * `state`, the public base URL of the callback), and the OpenID Connect sign-in of the tenant's
 * administrator that proves the consent. Only this function bundles that sign-in (oauth4webapi
 * and jose) and reads the application's client secret for it.
 *
 * - `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET_ARN` (optional): the service's multi-tenant Entra
 *   application and the secret it redeems the sign-in's code with; without them a consent cannot
 *   be proven, and the callback says so.
 */
export interface AzureConsentRuntime extends OnboardingRuntime {
  /** The sign-in of a tenant's administrator that proves the consent. */
  readonly tenantSignIn: TenantSignIn;
}

const repositories = awsFunctionContext({
  onboarding: onboardingRepository,
  orgs: orgRepository,
  azureTenants: azureTenantRepository,
});

/** The consent callback's function on AWS, built on the first invocation. */
export const awsOnboardingAzureConsentContext = onFirstUse(() => {
  const runtime = azureConsentFromEnvironment(process.env);
  return {
    ...repositories(),
    onboarding: runtime.settings,
    publicApiUrl: runtime.publicApiUrl,
    tenantSignIn: runtime.tenantSignIn,
  };
});

export function azureConsentFromEnvironment(env: NodeJS.ProcessEnv): AzureConsentRuntime {
  const runtime = onboardingFromEnvironment(env);
  const azureSecretArn = env.AZURE_CLIENT_SECRET_ARN;
  return {
    ...runtime,
    tenantSignIn:
      runtime.settings.azureClientId && azureSecretArn
        ? entraSignIn({
            clientId: runtime.settings.azureClientId,
            clientSecret: secretsManagerSecret(azureSecretArn),
            authority: microsoftAuthority,
          })
        : unconfiguredSignIn,
  };
}

/** Without the app's secret (context azureClientSecretArn) no sign-in can prove a consent: the callback says so. */
const unconfiguredSignIn: TenantSignIn = {
  begin: () => Promise.reject(notConfigured()),
  finish: () => Promise.reject(notConfigured()),
};

function notConfigured(): TenantSignInError {
  return new TenantSignInError(
    'identity_platform_unavailable',
    'Azure sign-in is not configured in this deployment (AZURE_CLIENT_ID and AZURE_CLIENT_SECRET_ARN)',
  );
}
