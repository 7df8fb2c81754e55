import * as oauth from 'oauth4webapi';
import type { AzurePermission } from '../../domain/onboarding/azure-checks';
import { isLoopbackHttp } from '../loopback-http';
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
/** Blob Storage's scope: the export's files are read with a token for it. */
export const storageScope = 'https://storage.azure.com/.default';

/**
 * One ARM GET (a full URL, api-version included) with the token; ARM's errors
 * (`{"error":{"code","message"}}`) become ProviderErrors named by their code.
 */
export async function armGet(
  url: string,
  token: string,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const error = (body.error ?? {}) as { code?: string; message?: string };
    const code = error.code ?? (response.status === 429 ? 'TooManyRequests' : String(response.status));
    throw new ProviderError(code, error.message ?? `ARM answered ${response.status}`);
  }
  return body;
}

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
      const get = (path: string, apiVersion: string) =>
        armGet(`${arm}${path}?api-version=${apiVersion}`, token, 10_000);
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

export interface ClientSecretTokensOptions {
  /** The service's multi-tenant Entra application. */
  readonly clientId: string;
  /** Its client secret (read from Secrets Manager on first use). */
  readonly clientSecret: () => Promise<string>;
  /**
   * @default https://login.microsoftonline.com (tests: a loopback server answering as the
   * identity platform does; plain HTTP is allowed for loopback addresses only)
   */
  readonly authority?: string;
  /** Milliseconds since the epoch; the system clock unless given. */
  readonly now?: () => number;
  /** What the tokens are for: @default armScope (Blob Storage: storageScope) */
  readonly scope?: string;
}

/**
 * A token is fetched again this long before it expires, so that one handed out still holds for
 * the ARM calls made with it (MSAL refreshes as early).
 */
export const tokenRefreshMarginMs = 5 * 60_000;

interface CachedToken {
  readonly accessToken: string;
  /** When to fetch a new one (ms since the epoch). */
  readonly refreshAt: number;
}

/**
 * ARM tokens (or, with `scope`, Blob Storage's) of the service's application in each customer tenant: the OAuth client-credentials
 * grant on the Microsoft identity platform's v2.0 token endpoint of the tenant, authenticated with
 * the client secret in the request body (client_secret_post). A token is kept per tenant until
 * shortly before it expires; concurrent verifications of a tenant share one request, and a failed
 * request is not kept. The identity platform's error (`{error, error_description}`, e.g.
 * `unauthorized_client` / `AADSTS700016` before the tenant's admin consented) becomes a
 * ProviderError named by `error`.
 */
export function clientSecretTokens(options: ClientSecretTokensOptions): TokenSource {
  const authority = (options.authority ?? 'https://login.microsoftonline.com').replace(/\/$/, '');
  const now = options.now ?? Date.now;
  const requestOptions: oauth.ClientCredentialsGrantRequestOptions = {
    signal: () => AbortSignal.timeout(10_000),
    [oauth.allowInsecureRequests]: isLoopbackHttp(new URL(authority)),
  };
  const client: oauth.Client = { client_id: options.clientId };
  const tokens = new Map<string, Promise<CachedToken>>();

  const requestToken = async (tenantId: string): Promise<CachedToken> => {
    const tenant = `${authority}/${encodeURIComponent(tenantId)}`;
    const server: oauth.AuthorizationServer = {
      issuer: `${tenant}/v2.0`,
      token_endpoint: `${tenant}/oauth2/v2.0/token`,
    };
    const requestedAt = now();
    try {
      const clientAuth = oauth.ClientSecretPost(await options.clientSecret());
      const response = await oauth.clientCredentialsGrantRequest(
        server,
        client,
        clientAuth,
        { scope: options.scope ?? armScope },
        requestOptions,
      );
      const answer = await oauth.processClientCredentialsResponse(server, client, response);
      // Without expires_in the token serves the verification that asked for it only.
      const lifetimeMs = (answer.expires_in ?? 0) * 1000;
      return { accessToken: answer.access_token, refreshAt: requestedAt + lifetimeMs - tokenRefreshMarginMs };
    } catch (error) {
      throw await identityPlatformError(error);
    }
  };

  /** The tenant's pending or kept token, or a new request (kept unless it fails). */
  const tokenOf = (tenantId: string): Promise<CachedToken> => {
    const kept = tokens.get(tenantId);
    if (kept) return kept;
    const requested = requestToken(tenantId);
    tokens.set(tenantId, requested);
    requested.catch(() => {
      if (tokens.get(tenantId) === requested) tokens.delete(tenantId);
    });
    return requested;
  };

  return async (tenantId) => {
    const kept = tokenOf(tenantId);
    const token = await kept;
    if (now() < token.refreshAt) return token.accessToken;
    // Due for renewal: the first caller to notice drops it; the others share the new request.
    if (tokens.get(tenantId) === kept) tokens.delete(tenantId);
    return (await tokenOf(tenantId)).accessToken;
  };
}

/**
 * What the token request's failure says, as a ProviderError where the identity platform answered
 * with an error: its OAuth error body (4xx), or whatever a 5xx or a challenge carries, else its
 * status. Network failures, timeouts and malformed answers stay as they are.
 */
async function identityPlatformError(error: unknown): Promise<unknown> {
  if (error instanceof oauth.ResponseBodyError) {
    return new ProviderError(error.error, error.error_description ?? error.error);
  }
  const response =
    error instanceof oauth.WWWAuthenticateChallengeError
      ? error.response
      : error instanceof oauth.OperationProcessingError && error.cause instanceof Response
        ? error.cause
        : null;
  if (!response || response.ok) return error;
  const body = (await response.json().catch(() => ({}))) as { error?: unknown; error_description?: unknown };
  const code = typeof body.error === 'string' && body.error ? body.error : String(response.status);
  const description =
    typeof body.error_description === 'string' && body.error_description
      ? body.error_description
      : `the identity platform answered ${response.status}`;
  return new ProviderError(code, description);
}

/** Plain HTTP to this machine (the tests' identity platform); never another host. */
