import type { APIGatewayProxyResult } from 'aws-lambda';
import {
  type AzureConsentContext,
  type ConsentOutcome,
  completeAzureConsent,
  createAzureAuthUrl,
} from '../shared/app/azure-consent';
import type { Principal } from '../shared/domain/principal';
import type { SimulatedPageRequest } from './simulated-identity-provider';

/** The simulated identity platform's pages, as the local server answers them. */
export type SimulatedMicrosoftPages = (
  request: SimulatedPageRequest,
) => Promise<APIGatewayProxyResult | null>;

/**
 * The Azure consent of a simulated tenant, as its administrator gives it in a browser, in this
 * process: #20's link, Accept on the simulated consent page, the callback, the sign-in as
 * `login` (a user of the tenant), the callback again, which redeems the code at the simulated
 * token endpoint over HTTP and verifies the ID token as in production. The operators' demo seed
 * connects the demo tenant so; answers the callback's last outcome.
 */
export async function consentAsSimulatedTenantUser(
  ctx: AzureConsentContext,
  input: {
    readonly principal: Principal;
    readonly orgId: string;
    readonly tenantId: string;
    readonly subscriptionId: string;
    readonly callbackUrl: string;
    readonly pages: SimulatedMicrosoftPages;
    /** The user who signs in (defaultSimulatedAdministrator: the tenant's default administrator). */
    readonly login: string;
  },
): Promise<ConsentOutcome> {
  const consentUrl = await createAzureAuthUrl(ctx, input.principal, input.orgId, input);
  const consented = await redirectOf(input.pages, `${consentUrl}&decision=accept`);
  const started = await completeAzureConsent(ctx, callbackOf(consented, input.callbackUrl));
  if (started.outcome !== 'sign_in') return started;
  const signInPage = new URL(started.url);
  signInPage.searchParams.set('login', input.login);
  return completeAzureConsent(
    ctx,
    callbackOf(await redirectOf(input.pages, signInPage.toString()), input.callbackUrl),
  );
}

async function redirectOf(pages: SimulatedMicrosoftPages, url: string): Promise<URL> {
  const target = new URL(url);
  const answer = await pages({
    method: 'GET',
    path: target.pathname,
    query: target.searchParams,
    body: async () => null,
  });
  const location = answer?.headers?.location;
  if (answer?.statusCode !== 302 || typeof location !== 'string') {
    throw new Error(
      `the simulated identity platform answered ${answer?.statusCode ?? 'nothing'} for ${target.pathname}`,
    );
  }
  return new URL(location);
}

function callbackOf(redirect: URL, callbackUrl: string): Parameters<typeof completeAzureConsent>[1] {
  const get = (name: string) => redirect.searchParams.get(name) ?? undefined;
  return {
    state: get('state'),
    adminConsent: get('admin_consent'),
    tenant: get('tenant'),
    code: get('code'),
    error: get('error'),
    errorDescription: get('error_description'),
    callbackUrl,
  };
}
