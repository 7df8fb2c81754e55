import { defaultSimulatedAdministrator, defaultSimulatedUser } from '../../local/simulated-identity-provider';
import { hasAzureUsageSubscription } from '../../shared/app/usage-sync';
import type { OnboardingRecord } from '../../shared/domain/onboarding/onboarding-record';

/**
 * The Azure consent of a simulated tenant as its customer gives it in a browser, over HTTP against
 * the local server: #20's link, Accept on the simulated consent page, the callback's redirect to
 * the tenant's sign-in, the sign-in as `login`, and the callback again (fetch follows every
 * redirect). Answers the last page (`Access granted` when the sign-in proved an administrator).
 */
export async function consentAs(consentUrl: string, login: string): Promise<Response> {
  const signInPage = await signInPageAfterConsent(consentUrl);
  const signIn = new URL(signInPage.url);
  signIn.searchParams.set('login', login);
  return fetch(signIn);
}

/** Accept on the consent page, then the callback's redirect: the tenant's sign-in page (200). */
export async function signInPageAfterConsent(consentUrl: string): Promise<Response> {
  const page = await fetch(`${consentUrl}&decision=accept`);
  if (!new URL(page.url).pathname.endsWith('/oauth2/v2.0/authorize')) {
    throw new Error(
      `the consent did not lead to the tenant's sign-in but to ${page.url} (${page.status}): ${await page.text()}`,
    );
  }
  return page;
}

/** The consent given by the tenant's default administrator (Global Administrator). */
export function consentAsAdministrator(consentUrl: string, tenantKey: string): Promise<Response> {
  return consentAs(consentUrl, defaultSimulatedAdministrator(tenantKey));
}

/** The default user of the tenant, who holds no directory role. */
export const nonAdministrator = defaultSimulatedUser;

/** The orgs the usage-sync fan-out would send an Azure sync for, read from a store snapshot. */
export function azureSyncFanOut(snapshot: readonly Record<string, unknown>[]): string[] {
  return snapshot
    .filter((item) => item.SK === 'ONBOARDING')
    .filter((item) => hasAzureUsageSubscription({ azure: item.azure ?? null } as OnboardingRecord))
    .map((item) => item.orgId as string)
    .sort();
}

/** The sign-in request the callback's first step redirected to, with its signed `state`. */
export async function signInRedirect(callbackUrl: string): Promise<URL> {
  const response = await fetch(callbackUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) {
    throw new Error(
      `the callback answered ${response.status}, not the tenant's sign-in: ${await response.text()}`,
    );
  }
  return new URL(location);
}
