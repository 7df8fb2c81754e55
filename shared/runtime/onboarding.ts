import type { OnboardingSettings } from '../app/onboarding';
import { createPlanSetReader } from '../store/plan-sets';
import {
  azureTenantRepository,
  membershipRepository,
  onboardingRepository,
  orgRepository,
  orgUpdateRepository,
  usageSyncStateRepository,
  userRepository,
} from '../store/store';
import { createUsageProvidersReader } from '../store/usage-states';
import { createFunctionContext } from './app-context';
import { createAwsTable, readAwsConfig } from './aws';
import { onFirstUse } from './function-context';
import { secretsManagerSecret } from './secrets-manager-secret';

/**
 * What the onboarding function runs with (docs/onboarding.md): the service's identities from the
 * environment (set by the CDK API stack). It verifies no cloud and signs no one in: the
 * verifications and the consent callback run in their own functions (onboarding-aws-verify.ts,
 * onboarding-azure-verify.ts, onboarding-azure-consent.ts, which reads the same settings), so
 * this one bundles no verifier and no OpenID Connect client. The local server and tests hand
 * theirs to the function's factory.
 *
 * - `SERVICE_AWS_ACCOUNT_ID`: the account the customers' roles trust (the deployment's own).
 * - `AWS_TEMPLATE_URL` (optional): the published role template, for CloudFormation quick create.
 * - `AZURE_CLIENT_ID` (optional): the service's multi-tenant Entra application (the consent URL).
 * - `CONSENT_STATE_SECRET_ARN`: the Secrets Manager secret that signs the consent `state`.
 * - `PUBLIC_API_URL`: the API's public base URL, where the consent callback is (the CDK stack sets
 *   it: the context `publicApiUrl`, else the API's base URL). Required: a callback URL built from
 *   the request's Host header would send the customer wherever that header says.
 */
export interface OnboardingRuntime {
  readonly settings: OnboardingSettings;
  /** The API's public base URL (https; locally the local server's). */
  readonly publicApiUrl: string;
}

const repositories = {
  onboarding: onboardingRepository,
  orgs: orgRepository,
  orgUpdates: orgUpdateRepository,
  memberships: membershipRepository,
  users: userRepository,
  usageSyncStates: usageSyncStateRepository,
  azureTenants: azureTenantRepository,
};

/**
 * The onboarding function on AWS: its repositories on the service's table and the onboarding
 * runtime from the environment, built on the first invocation. Of the usage and plans the
 * child-org listing asks only whether an org has any: those two reads, not their repositories.
 */
export const awsOnboardingContext = onFirstUse(() => {
  const runtime = onboardingFromEnvironment(process.env);
  const table = createAwsTable(readAwsConfig(process.env));
  const context = createFunctionContext(table, repositories);
  return {
    ...context,
    repos: { ...context.repos, usage: createUsageProvidersReader(table), plans: createPlanSetReader(table) },
    onboarding: runtime.settings,
    publicApiUrl: runtime.publicApiUrl,
  };
});

/** The consent callback's URL, under the configured public base URL (never the request's host). */
export function consentCallbackUrl(runtime: Pick<OnboardingRuntime, 'publicApiUrl'>): string {
  return `${runtime.publicApiUrl.replace(/\/+$/, '')}/v2/onboarding/azure/callback`;
}

export function onboardingFromEnvironment(env: NodeJS.ProcessEnv): OnboardingRuntime {
  const serviceAwsAccountId = env.SERVICE_AWS_ACCOUNT_ID;
  if (!serviceAwsAccountId || !/^\d{12}$/.test(serviceAwsAccountId)) {
    throw new Error("SERVICE_AWS_ACCOUNT_ID must be the 12-digit account the customers' roles trust");
  }
  const stateSecretArn = env.CONSENT_STATE_SECRET_ARN;
  if (!stateSecretArn)
    throw new Error('CONSENT_STATE_SECRET_ARN is not set: the secret that signs consent states');
  return {
    publicApiUrl: publicApiUrlOf(env.PUBLIC_API_URL),
    settings: {
      serviceAwsAccountId,
      awsTemplateUrl: env.AWS_TEMPLATE_URL || null,
      azureClientId: env.AZURE_CLIENT_ID ?? '',
      azureAuthority: microsoftAuthority,
      stateSecret: secretsManagerSecret(stateSecretArn),
    },
  };
}

/** The Microsoft identity platform (the consent URL; the consent's sign-in). */
export const microsoftAuthority = 'https://login.microsoftonline.com';

function publicApiUrlOf(value: string | undefined): string {
  if (!value) {
    throw new Error(
      "PUBLIC_API_URL is not set: the API's public base URL, where the Azure consent callback is (the CDK context publicApiUrl, else the API's base URL)",
    );
  }
  if (!URL.canParse(value) || new URL(value).protocol !== 'https:') {
    throw new Error(`PUBLIC_API_URL must be an https URL (the API's public base URL), got ${value}`);
  }
  return value;
}
