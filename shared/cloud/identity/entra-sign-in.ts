import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import * as oauth from 'oauth4webapi';
import type { TenantSignIn } from '../../app/ports/azure-tenants';
import { verifyTenantIdToken } from '../../auth/tenant-id-token';
import { TenantSignInError } from '../../domain/onboarding/tenant-sign-in-error';
import { isLoopbackHttp } from '../loopback-http';

export interface EntraSignInOptions {
  /** The service's multi-tenant Entra application (the ID token's audience). */
  readonly clientId: string;
  /** Its client secret (read from Secrets Manager on first use). */
  readonly clientSecret: () => Promise<string>;
  /**
   * The identity platform's base URL: `https://login.microsoftonline.com`; locally the local
   * server's simulated tenants (plain HTTP is allowed for loopback addresses only).
   */
  readonly authority: string;
  readonly now?: () => Date;
}

/** How long a tenant's discovery document is kept before it is read again. */
const discoveryTtlMs = 60 * 60_000;
const requestTimeoutMs = 10_000;

interface Discovered {
  readonly server: oauth.AuthorizationServer;
  readonly keys: JWTVerifyGetKey;
  readonly readAt: number;
}

/**
 * The OpenID Connect authorization-code sign-in that proves an Azure admin consent
 * (docs/onboarding.md, Azure consent), on the Microsoft identity platform's v2.0 endpoints of the
 * tenant: the discovery document `<authority>/<tenant>/v2.0/.well-known/openid-configuration`
 * (its issuer must be that URL), the authorization request with PKCE (S256), a nonce and the
 * callback's state, the code redeemed as a confidential client (client_secret_post, with the code
 * verifier), and the ID token verified with jose against the keys of the document's `jwks_uri`
 * (one remote key set per issuer, kept for the process: jose refetches it for an unknown `kid`).
 */
export function entraSignIn(options: EntraSignInOptions): TenantSignIn {
  const authority = options.authority.replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const insecure = isLoopbackHttp(new URL(authority));
  const client: oauth.Client = { client_id: options.clientId };
  const discovered = new Map<string, Promise<Discovered>>();

  const discover = (tenantId: string): Promise<Discovered> => {
    const issuer = `${authority}/${encodeURIComponent(tenantId)}/v2.0`;
    const cached = discovered.get(issuer);
    if (cached) {
      return cached.then((entry) =>
        now().getTime() - entry.readAt < discoveryTtlMs ? entry : refresh(issuer, entry.keys),
      );
    }
    return refresh(issuer, null);
  };

  const refresh = (issuer: string, keys: JWTVerifyGetKey | null): Promise<Discovered> => {
    const reading = (async () => {
      const issuerUrl = new URL(issuer);
      const server = await unavailableOnFailure('discovery document', async () =>
        oauth.processDiscoveryResponse(
          issuerUrl,
          await oauth.discoveryRequest(issuerUrl, {
            algorithm: 'oidc',
            signal: AbortSignal.timeout(requestTimeoutMs),
            [oauth.allowInsecureRequests]: insecure,
          }),
        ),
      );
      if (!server.authorization_endpoint || !server.token_endpoint || !server.jwks_uri) {
        throw new TenantSignInError(
          'identity_platform_unavailable',
          `the discovery document of ${issuer} names no authorization endpoint, token endpoint or keys`,
        );
      }
      return {
        server,
        keys: keys ?? createRemoteJWKSet(new URL(server.jwks_uri), { timeoutDuration: requestTimeoutMs }),
        readAt: now().getTime(),
      };
    })();
    discovered.set(issuer, reading);
    // A failed read is not kept: the next sign-in reads the document again.
    reading.catch(() => discovered.delete(issuer));
    return reading;
  };

  return {
    async begin({ tenantId, redirectUri, state }) {
      const { server } = await discover(tenantId);
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const nonce = oauth.generateRandomNonce();
      const url = new URL(server.authorization_endpoint as string);
      url.search = new URLSearchParams({
        client_id: options.clientId,
        response_type: 'code',
        response_mode: 'query',
        redirect_uri: redirectUri,
        scope: 'openid profile',
        state,
        nonce,
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      }).toString();
      return { url: url.toString(), codeVerifier, nonce };
    },

    async finish({ tenantId, code, redirectUri, codeVerifier, nonce, firstUse }) {
      const { server, keys } = await discover(tenantId);
      const response = await unavailableOnFailure('token endpoint', async () =>
        oauth.authorizationCodeGrantRequest(
          server,
          client,
          oauth.ClientSecretPost(await options.clientSecret()),
          oauth.validateAuthResponse(server, client, new URLSearchParams({ code }), oauth.skipStateCheck),
          redirectUri,
          codeVerifier,
          { signal: AbortSignal.timeout(requestTimeoutMs), [oauth.allowInsecureRequests]: insecure },
        ),
      );
      const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      if (!response.ok) {
        const error = typeof body?.error === 'string' ? body.error : `HTTP ${response.status}`;
        const description = typeof body?.error_description === 'string' ? body.error_description : '';
        throw new TenantSignInError(
          'code_refused',
          `the identity platform refused the sign-in's code: ${error}${description ? ` (${firstLine(description)})` : ''}`,
        );
      }
      if (typeof body?.id_token !== 'string') {
        throw new TenantSignInError('id_token_malformed', 'the token answer holds no ID token');
      }
      return verifyTenantIdToken(
        body.id_token,
        { issuer: server.issuer, tenantId, audience: options.clientId, nonce },
        keys,
        { now: now(), firstUse },
      );
    },
  };
}

async function unavailableOnFailure<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TenantSignInError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new TenantSignInError('identity_platform_unavailable', `the ${what} could not be read: ${reason}`);
  }
}

function firstLine(text: string): string {
  return (text.split(/\r?\n/)[0] ?? '').slice(0, 200);
}
