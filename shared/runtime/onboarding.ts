import type { OnboardingContext, OnboardingRepositories, OnboardingSettings } from '../app/onboarding';
import type { CloudVerifier, ContextWith } from '../app/ports';
import type { AwsAccountProbe } from '../cloud/verifiers/aws-verification';
import { runAwsChecks } from '../cloud/verifiers/aws-verification';
import { azureArmProbe, clientSecretTokens } from '../cloud/verifiers/azure-arm-probe';
import { type AzureTenantProbe, runAzureChecks } from '../cloud/verifiers/azure-verification';
import { ProviderError } from '../cloud/verifiers/provider-failure';

/**
 * What the onboarding function runs with (DESIGN §11): the service's identities from the
 * environment (set by the CDK API stack) and the cloud verifier. The local runtime and tests
 * install theirs (the simulated cloud) first.
 *
 * - `SERVICE_AWS_ACCOUNT_ID`: the account the customers' roles trust (the deployment's own).
 * - `AWS_TEMPLATE_URL` (optional): the published role template, for CloudFormation quick create.
 * - `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET_ARN` (optional): the service's multi-tenant Entra
 *   application and the Secrets Manager secret holding its client secret (Azure verification).
 * - `CONSENT_STATE_SECRET_ARN`: the Secrets Manager secret that signs the consent `state`.
 * - `PUBLIC_API_URL` (optional): the API's public base URL, for the consent callback; without it,
 *   the request's host and `API_STAGE` make it.
 */
export interface OnboardingRuntime {
  readonly verifier: CloudVerifier;
  readonly settings: OnboardingSettings;
  /** The API's public base URL; null: from the request's host. */
  readonly publicApiUrl: string | null;
  readonly stage: string;
}

let installed: OnboardingRuntime | undefined;

export function installOnboarding(runtime: OnboardingRuntime): void {
  installed = runtime;
}

export function onboardingRuntime(): OnboardingRuntime {
  installed ??= onboardingFromEnvironment(process.env);
  return installed;
}

/** The onboarding function's own context (current.ts) with the verifier and the settings. */
export function onboardingContext(base: ContextWith<OnboardingRepositories>): OnboardingContext {
  const runtime = onboardingRuntime();
  return { ...base, verifier: runtime.verifier, onboarding: runtime.settings };
}

/** The consent callback's URL: the configured public URL, or the request's host and the stage. */
export function consentCallbackUrl(runtime: OnboardingRuntime, host: string | undefined): string {
  const base = runtime.publicApiUrl ?? `https://${host ?? 'localhost'}/${runtime.stage}`;
  return `${base.replace(/\/$/, '')}/v2/onboarding/azure/callback`;
}

export function onboardingFromEnvironment(env: NodeJS.ProcessEnv): OnboardingRuntime {
  const serviceAwsAccountId = env.SERVICE_AWS_ACCOUNT_ID;
  if (!serviceAwsAccountId || !/^\d{12}$/.test(serviceAwsAccountId)) {
    throw new Error("SERVICE_AWS_ACCOUNT_ID must be the 12-digit account the customers' roles trust");
  }
  const stateSecretArn = env.CONSENT_STATE_SECRET_ARN;
  if (!stateSecretArn)
    throw new Error('CONSENT_STATE_SECRET_ARN is not set: the secret that signs consent states');
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const azureClientId = env.AZURE_CLIENT_ID ?? '';
  const azureSecretArn = env.AZURE_CLIENT_SECRET_ARN;
  const stateSecret = secretValue(stateSecretArn, region);
  // The SDK adapters load on the first verification: the other onboarding routes never need them.
  let awsProbe: Promise<AwsAccountProbe> | undefined;
  const azureProbe: AzureTenantProbe =
    azureClientId && azureSecretArn
      ? azureArmProbe({
          tokens: clientSecretTokens({
            clientId: azureClientId,
            clientSecret: secretValue(azureSecretArn, region),
          }),
        })
      : unconfiguredAzure;
  const verifier: CloudVerifier = {
    async verifyAws(request) {
      awsProbe ??= import('../cloud/verifiers/aws-sdk-probe').then((module) =>
        module.awsSdkProbe({ region }),
      );
      return runAwsChecks(await awsProbe, request);
    },
    verifyAzure: (request) => runAzureChecks(azureProbe, request),
  };
  return {
    verifier,
    publicApiUrl: env.PUBLIC_API_URL || null,
    stage: env.API_STAGE ?? 'prod',
    settings: {
      serviceAwsAccountId,
      awsTemplateUrl: env.AWS_TEMPLATE_URL || null,
      azureClientId,
      azureAuthority: 'https://login.microsoftonline.com',
      stateSecret,
    },
  };
}

/** A Secrets Manager secret's string, read on first use; a failed read is tried again next time. */
function secretValue(secretArn: string, region: string): () => Promise<string> {
  let value: Promise<string> | undefined;
  return () => {
    value ??= import('@aws-sdk/client-secrets-manager').then(async (sm) => {
      const client = new sm.SecretsManagerClient({ region });
      const answer = await client.send(new sm.GetSecretValueCommand({ SecretId: secretArn }));
      if (!answer.SecretString) throw new Error(`The secret ${secretArn} has no string value`);
      return answer.SecretString;
    });
    value.catch(() => {
      value = undefined;
    });
    return value;
  };
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
