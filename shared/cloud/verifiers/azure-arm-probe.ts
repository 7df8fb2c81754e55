import type { AzurePermission } from '../../domain/onboarding/azure-checks';
import type { AzureTenantProbe, AzureTenantSession } from './azure-verification';
import { ProviderError } from './provider-failure';

/** An ARM access token for the service's app in one tenant (client credentials). */
export type TokenSource = (tenantId: string) => Promise<string>;

export interface AzureArmProbeOptions {
  readonly tokens: TokenSource;
  /** @default https://management.azure.com (tests: a local server answering as ARM does) */
  readonly armEndpoint?: string;
}

export const armScope = 'https://management.azure.com/.default';

/**
 * The Azure checks' calls on ARM's REST API, with a token of the service's application in the
 * customer's tenant (which it only gets after admin consent). ARM's errors
 * (`{"error":{"code","message"}}`) become ProviderErrors named by their code.
 */
export function azureArmProbe(options: AzureArmProbeOptions): AzureTenantProbe {
  const arm = (options.armEndpoint ?? 'https://management.azure.com').replace(/\/$/, '');
  return {
    async signIn(tenantId): Promise<AzureTenantSession> {
      const token = await options.tokens(tenantId);
      const get = async (path: string, apiVersion: string): Promise<Record<string, unknown>> => {
        const response = await fetch(`${arm}${path}?api-version=${apiVersion}`, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
        if (!response.ok) {
          const error = (body.error ?? {}) as { code?: string; message?: string };
          const code = error.code ?? (response.status === 429 ? 'TooManyRequests' : String(response.status));
          throw new ProviderError(code, error.message ?? `ARM answered ${response.status}`);
        }
        return body;
      };
      const subscription = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;
      return {
        async getSubscription(subscriptionId) {
          const body = await get(subscription(subscriptionId), '2022-12-01');
          return { displayName: String(body.displayName ?? subscriptionId) };
        },
        async listCostExports(subscriptionId) {
          const body = await get(
            `${subscription(subscriptionId)}/providers/Microsoft.CostManagement/exports`,
            '2023-07-01-preview',
          );
          return ((body.value ?? []) as { name?: string }[]).map((entry) => entry.name ?? '');
        },
        async permissions(subscriptionId) {
          const body = await get(
            `${subscription(subscriptionId)}/providers/Microsoft.Authorization/permissions`,
            '2022-04-01',
          );
          return ((body.value ?? []) as Partial<AzurePermission>[]).map((entry) => ({
            actions: entry.actions ?? [],
            notActions: entry.notActions ?? [],
          }));
        },
      };
    },
  };
}

/**
 * Tokens from `@azure/identity`'s client-secret credential (one per tenant, cached for the
 * process). Its AuthenticationError carries the identity platform's error and description, e.g.
 * `unauthorized_client` / `AADSTS700016` before the tenant's admin consented.
 */
export function clientSecretTokens(clientId: string, clientSecret: () => Promise<string>): TokenSource {
  const credentials = new Map<string, Promise<import('@azure/identity').ClientSecretCredential>>();
  return async (tenantId) => {
    let credential = credentials.get(tenantId);
    if (!credential) {
      credential = Promise.all([import('@azure/identity'), clientSecret()]).then(
        ([identity, secret]) => new identity.ClientSecretCredential(tenantId, clientId, secret),
      );
      credentials.set(tenantId, credential);
      credential.catch(() => credentials.delete(tenantId));
    }
    try {
      const token = await (await credential).getToken(armScope);
      return token.token;
    } catch (error) {
      const response = (error as { errorResponse?: { error?: string; errorDescription?: string } })
        .errorResponse;
      if (response?.error)
        throw new ProviderError(response.error, response.errorDescription ?? response.error);
      throw error;
    }
  };
}
