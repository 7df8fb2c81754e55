import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { CloudVerifier } from '../shared/app/ports';
import { probeVerifier } from '../shared/cloud/verifiers/probe-verifier';
import { escapeHtml } from '../shared/http/html';
import type { OnboardingRuntime } from '../shared/runtime/onboarding';
import {
  changeSimulatedCloud,
  readSimulatedCloud,
  simulatedAwsProbe,
  simulatedAzureProbe,
} from './simulated-cloud';

/** The service's AWS account locally: a fixed demo id the simulated roles trust. */
export const localServiceAccountId = '111122223333';
/** The service's Entra application locally (a fixed demo id). */
export const localAzureClientId = '00000000-0000-4000-8000-00000000c0de';

const stateSecretFile = 'consent-state-secret';
export const simulatedConsentPath = '/local/azure';

/**
 * The onboarding function's runtime locally, with the verifier both verification functions use
 * (installed for each by the local API).
 */
export interface LocalOnboarding extends OnboardingRuntime {
  readonly verifier: CloudVerifier;
}

/**
 * Onboarding on the simulated cloud under `dir` (the local default): the verifier reads
 * `simulated-cloud.json`, the Azure authority is the local server's simulated consent page, and
 * the consent state's secret is generated once and kept in `dir`.
 * `SERVICE_AWS_ACCOUNT_ID` overrides the service's account.
 */
export function localOnboarding(dir: string, baseUrl: string, env: NodeJS.ProcessEnv): LocalOnboarding {
  const serviceAwsAccountId = env.SERVICE_AWS_ACCOUNT_ID ?? localServiceAccountId;
  let secret: Promise<string> | undefined;
  return {
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
        secret ??= localStateSecret(dir);
        return secret;
      },
    },
  };
}

/** The secret that signs consent states, created on first use (readable by the owner only). */
export async function localStateSecret(dir: string): Promise<string> {
  const path = join(dir, stateSecretFile);
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
 * The simulated Microsoft admin-consent page: `GET /local/azure/<tenant>/v2.0/adminconsent` with the
 * identity platform's parameters. Without `decision` it shows Accept and Decline links; with
 * `decision=accept` it records the tenant's consent in the simulated cloud and redirects to the
 * callback as the identity platform does (`decision=decline`: the refusal). It redirects only to
 * this server's callback.
 */
export function simulatedConsentPage(dir: string, baseUrl: string) {
  const pattern = new RegExp(`^${simulatedConsentPath}/([^/]+)/v2\\.0/adminconsent$`);
  return async (path: string, query: URLSearchParams): Promise<APIGatewayProxyResult | null> => {
    const match = pattern.exec(path);
    if (!match) return null;
    const tenantId = decodeURIComponent(match[1] as string);
    const redirectUri = query.get('redirect_uri') ?? '';
    const state = query.get('state') ?? '';
    if (!redirectUri.startsWith(`${baseUrl}/`)) {
      return html(400, 'Invalid request', 'AADSTS50011: The redirect URI does not match this application.');
    }
    const redirect = (params: Record<string, string>): APIGatewayProxyResult => ({
      statusCode: 302,
      headers: { location: `${redirectUri}?${new URLSearchParams({ ...params, state }).toString()}` },
      body: '',
    });
    const decision = query.get('decision');
    if (decision === 'accept') {
      const cloud = await readSimulatedCloud(dir);
      if (!cloud.azure[tenantId]) {
        return redirect({
          error: 'invalid_request',
          error_description: `AADSTS90002: Tenant '${tenantId}' not found.`,
        });
      }
      await changeSimulatedCloud(dir, (current) => {
        const tenant = current.azure[tenantId];
        if (tenant) tenant.consent = true;
      });
      return redirect({ admin_consent: 'True', tenant: tenantId });
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
      return escapeHtml(`${path}?${params.toString()}`);
    };
    return html(
      200,
      'Permissions requested (simulated)',
      `The commitment planning service asks to read cost data and buy reservations in tenant ${tenantId}.`,
      `<p><a href="${link('accept')}">Accept</a> &middot; <a href="${link('decline')}">Decline</a></p>`,
    );
  };
}

function html(statusCode: number, title: string, message: string, extra = ''): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${extra}</body></html>`,
  };
}
