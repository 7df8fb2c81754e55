import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { CloudVerifier } from '../shared/app/ports';
import { entraSignIn } from '../shared/cloud/identity/entra-sign-in';
import { probeVerifier } from '../shared/cloud/verifiers/probe-verifier';
import { escapeHtml } from '../shared/http/html';
import type { AzureConsentRuntime } from '../shared/runtime/onboarding-azure-consent';
import {
  changeSimulatedCloud,
  readSimulatedCloud,
  simulatedAwsProbe,
  simulatedAzureProbe,
} from './simulated-cloud';
import {
  findSimulatedTenant,
  type SimulatedPageRequest,
  simulatedIdentityProvider,
  simulatedPage,
  simulatedTenantId,
} from './simulated-identity-provider';

/** The service's AWS account locally: a fixed demo id the simulated roles trust. */
export const localServiceAccountId = '111122223333';
/** The service's Entra application locally (a fixed demo id). */
export const localAzureClientId = '00000000-0000-4000-8000-00000000c0de';

const stateSecretFile = 'consent-state-secret';
/** The service application's client secret locally: what the simulated token endpoint expects. */
const azureClientSecretFile = 'azure-client-secret';
export const simulatedConsentPath = '/local/azure';

/**
 * The onboarding and consent callback functions' runtime locally, with the verifier both
 * verification functions use (installed for each by the local API).
 */
export interface LocalOnboarding extends AzureConsentRuntime {
  readonly verifier: CloudVerifier;
}

/**
 * Onboarding on the simulated cloud under `dir` (the local default): the verifier reads
 * `simulated-cloud.json`, the Azure authority is the local server's simulated identity platform
 * (the consent page and the tenants' sign-in, signed in to by the same client as Microsoft's), and
 * the consent state's secret and the application's client secret are generated once and kept in
 * `dir`. `SERVICE_AWS_ACCOUNT_ID` overrides the service's account.
 */
export function localOnboarding(dir: string, baseUrl: string, env: NodeJS.ProcessEnv): LocalOnboarding {
  const serviceAwsAccountId = env.SERVICE_AWS_ACCOUNT_ID ?? localServiceAccountId;
  let secret: Promise<string> | undefined;
  return {
    tenantSignIn: entraSignIn({
      clientId: localAzureClientId,
      clientSecret: () => localAzureClientSecret(dir),
      authority: `${baseUrl}${simulatedConsentPath}`,
    }),
    verifier: probeVerifier({
      aws: simulatedAwsProbe(dir, serviceAwsAccountId),
      azure: simulatedAzureProbe(dir, localAzureClientId),
    }),
    publicApiUrl: baseUrl,
    settings: {
      serviceAwsAccountId,
      awsTemplateUrl: null,
      azureClientId: localAzureClientId,
      azureAuthority: `${baseUrl}${simulatedConsentPath}`,
      stateSecret() {
        secret ??= localSecret(dir, stateSecretFile);
        return secret;
      },
    },
  };
}

/** The secret that signs consent states, created on first use (readable by the owner only). */
export function localStateSecret(dir: string): Promise<string> {
  return localSecret(dir, stateSecretFile);
}

/** The local service application's client secret (the simulated token endpoint checks it). */
export function localAzureClientSecret(dir: string): Promise<string> {
  return localSecret(dir, azureClientSecretFile);
}

async function localSecret(dir: string, file: string): Promise<string> {
  const path = join(dir, file);
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another local process created it first: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(path, 'utf8')).trim();
    throw error;
  }
}

/**
 * The simulated Microsoft identity platform's pages under `/local/azure` (GET, and POST for the
 * token endpoint): the admin-consent page and each tenant's sign-in (simulated-identity-provider.ts).
 */
export function simulatedMicrosoftPages(dir: string, baseUrl: string) {
  const consentPage = simulatedConsentPage(dir, baseUrl);
  const identity = simulatedIdentityProvider({
    dir,
    authority: `${baseUrl}${simulatedConsentPath}`,
    baseUrl,
    clientId: localAzureClientId,
    clientSecret: () => localAzureClientSecret(dir),
  });
  return async (request: SimulatedPageRequest): Promise<APIGatewayProxyResult | null> => {
    if (!request.path.startsWith(`${simulatedConsentPath}/`)) return null;
    const path = request.path.slice(simulatedConsentPath.length);
    return (
      (request.method === 'GET' ? await consentPage(path, request.query) : null) ??
      (await identity({ ...request, path }))
    );
  };
}

/**
 * The simulated Microsoft admin-consent page: `GET /local/azure/<tenant>/v2.0/adminconsent` with the
 * identity platform's parameters. Without `decision` it shows Accept and Decline links; with
 * `decision=accept` it records the tenant's consent in the simulated cloud and redirects to the
 * callback as the identity platform does, naming the tenant by its id (`decision=decline`: the
 * refusal). It redirects only to this server's callback.
 */
function simulatedConsentPage(dir: string, baseUrl: string) {
  const pattern = /^\/([^/]+)\/v2\.0\/adminconsent$/;
  return async (path: string, query: URLSearchParams): Promise<APIGatewayProxyResult | null> => {
    const match = pattern.exec(path);
    if (!match) return null;
    const tenantName = decodeURIComponent(match[1] as string);
    const redirectUri = query.get('redirect_uri') ?? '';
    const state = query.get('state') ?? '';
    if (!redirectUri.startsWith(`${baseUrl}/`)) {
      return simulatedPage(
        400,
        'Invalid request',
        'AADSTS50011: The redirect URI does not match this application.',
      );
    }
    const redirect = (params: Record<string, string>): APIGatewayProxyResult => ({
      statusCode: 302,
      headers: { location: `${redirectUri}?${new URLSearchParams({ ...params, state }).toString()}` },
      body: '',
    });
    const decision = query.get('decision');
    if (decision === 'accept') {
      const found = findSimulatedTenant(await readSimulatedCloud(dir), tenantName);
      if (!found) {
        return redirect({
          error: 'invalid_request',
          error_description: `AADSTS90002: Tenant '${tenantName}' not found.`,
        });
      }
      await changeSimulatedCloud(dir, (current) => {
        const tenant = current.azure[found.key];
        if (tenant) tenant.consent = true;
      });
      return redirect({ admin_consent: 'True', tenant: simulatedTenantId(found.key) });
    }
    if (decision === 'decline') {
      return redirect({
        error: 'access_denied',
        error_description: 'AADSTS65004: User declined to consent to access the app.',
      });
    }
    const link = (choice: string) => {
      const params = new URLSearchParams(query);
      params.set('decision', choice);
      return escapeHtml(`${simulatedConsentPath}${path}?${params.toString()}`);
    };
    return simulatedPage(
      200,
      'Permissions requested (simulated)',
      `The commitment planning service asks to read cost data and buy reservations in tenant ${tenantName}.`,
      `<p><a href="${link('accept')}">Accept</a> &middot; <a href="${link('decline')}">Decline</a></p>`,
    );
  };
}
