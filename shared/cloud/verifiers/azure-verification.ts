import type { AzureVerificationRequest } from '../../app/ports';
import { awsErrorKind, failureDetail, type ProviderFailure } from '../../domain/onboarding/aws-checks';
import {
  type AzurePermission,
  azureFeatures,
  checksWithoutConsent,
  purchaseChecks,
} from '../../domain/onboarding/azure-checks';
import { type CheckResult, check, inFeatureOrder } from '../../domain/onboarding/checklist';
import { providerFailureOf } from './provider-failure';

/**
 * What the Azure checks call: a sign-in to the customer's tenant with the service app's client
 * credentials (it only works after admin consent), then ARM reads on the subscription. The ARM
 * REST adapter and the simulated cloud implement it; errors carry ARM's or the identity
 * platform's code as `name`.
 */
export interface AzureTenantProbe {
  signIn(tenantId: string): Promise<AzureTenantSession>;
}

export interface AzureTenantSession {
  /** GET /subscriptions/{id}: the subscription's display name. */
  getSubscription(subscriptionId: string): Promise<{ displayName: string }>;
  /** Cost Management exports of the subscription: their names. */
  listCostExports(subscriptionId: string): Promise<string[]>;
  /** Microsoft.Authorization/permissions of the app on the subscription. */
  permissions(subscriptionId: string): Promise<AzurePermission[]>;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; failure: ProviderFailure };

async function attempt<T>(call: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, failure: providerFailureOf(error) };
  }
}

/** Azure error codes (ARM, identity platform) mapped like AWS's. */
function azureErrorStatus(failure: ProviderFailure, deniedMeansMissing: boolean): 'missing' | 'unknown' {
  const name = failure.name;
  if (/^(AuthorizationFailed|Forbidden|InvalidAuthenticationToken.*|LinkedAuthorizationFailed)$/.test(name)) {
    return deniedMeansMissing ? 'missing' : 'unknown';
  }
  if (/^(SubscriptionNotFound|NotFound|ResourceNotFound|InvalidSubscriptionId)$/.test(name)) return 'missing';
  if (/^(TooManyRequests|429|ServiceUnavailable)$/.test(name)) return 'unknown';
  return awsErrorKind(name) === 'not_found' ? 'missing' : 'unknown';
}

/** Runs the Azure checks (docs/onboarding.md): the sign-in first, then the subscription's reads at once. */
export async function runAzureChecks(
  probe: AzureTenantProbe,
  request: AzureVerificationRequest,
): Promise<CheckResult[]> {
  if (request.consent && !request.consent.granted) {
    return [
      check(
        'admin_consent',
        'missing',
        `the customer refused consent: ${request.consent.error ?? 'not granted'}`,
      ),
      ...checksWithoutConsent('no admin consent'),
    ];
  }
  // Only a consent an administrator of the tenant proved by signing in counts (docs/onboarding.md,
  // Azure consent): the app may sign in to a tenant another org's customer consented for.
  if (!request.consent?.signedInBy) {
    return [
      check(
        'admin_consent',
        'missing',
        'no administrator of the tenant has signed in to grant the consent yet: open the consent link (auth-url)',
      ),
      ...checksWithoutConsent('no admin consent'),
    ];
  }
  const signedIn = await attempt(() => probe.signIn(request.tenantId));
  if (!signedIn.ok) {
    const consentMissing =
      /AADSTS(65001|700016|90094|500011)|consent|invalid_client|unauthorized_client/i.test(
        `${signedIn.failure.name} ${signedIn.failure.message}`,
      );
    return [
      check(
        'admin_consent',
        consentMissing ? 'missing' : 'unknown',
        failureDetail(`sign-in to tenant ${request.tenantId}`, signedIn.failure),
      ),
      ...checksWithoutConsent('the app could not sign in to the tenant'),
    ];
  }
  const session = signedIn.value;
  const subscription = request.subscriptionId;
  const [found, exports, permissions] = await Promise.all([
    attempt(() => session.getSubscription(subscription)),
    attempt(() => session.listCostExports(subscription)),
    attempt(() => session.permissions(subscription)),
  ]);
  const items: CheckResult[] = [
    check('admin_consent', 'available', `the app signs in to tenant ${request.tenantId}`),
    found.ok
      ? check('subscription_access', 'available', `reads subscription ${found.value.displayName}`)
      : check(
          'subscription_access',
          azureErrorStatus(found.failure, true),
          failureDetail(`read subscription ${subscription}`, found.failure),
        ),
    !exports.ok
      ? check(
          'cost_export',
          azureErrorStatus(exports.failure, false),
          failureDetail('list Cost Management exports', exports.failure),
        )
      : exports.value.length > 0
        ? check('cost_export', 'available', `export ${exports.value.join(', ')}`)
        : check('cost_export', 'missing', 'no Cost Management export on the subscription'),
    ...(permissions.ok
      ? purchaseChecks(permissions.value)
      : (['reservation_purchase', 'savings_plan_purchase'] as const).map((feature) =>
          check(
            feature,
            azureErrorStatus(permissions.failure, false),
            failureDetail('read Microsoft.Authorization/permissions', permissions.failure),
          ),
        )),
  ];
  return inFeatureOrder(azureFeatures, items);
}
