import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { tenantConsentRoles } from '../shared/domain/onboarding/tenant-admin-roles';
import { escapeHtml } from '../shared/http/html';
import {
  changeSimulatedCloud,
  readSimulatedCloud,
  type SimulatedAzureTenant,
  type SimulatedCloud,
  type SimulatedTenantUser,
} from './simulated-cloud';

/**
 * The simulated Microsoft identity platform (docs/onboarding.md, The simulated cloud): each
 * simulated Azure tenant serves, under `<base>/local/azure/<tenant>/`, what the service's sign-in
 * reads of the real one (shared/cloud/identity/entra-sign-in.ts): the v2.0 discovery document,
 * the keys (`discovery/v2.0/keys`), an authorization endpoint (a sign-in page where the local user
 * picks one of the tenant's users) and a token endpoint that redeems the code (confidential
 * client, PKCE S256) for an ID token signed with the simulated platform's own RSA key, kept in the
 * simulated cloud document. Codes live in this process (ten minutes, single use).
 */

/** A request to one of the simulated platform's pages. */
export interface SimulatedPageRequest {
  readonly method: string;
  /** After the `/local/azure` prefix: `/<tenant>/...`. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: () => Promise<string | null>;
}

export interface SimulatedIdentityOptions {
  readonly dir: string;
  /** `<local server>/local/azure`: the authority the service is configured with. */
  readonly authority: string;
  /** Where redirects may go: the local server's base URL. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: () => Promise<string>;
  readonly now?: () => Date;
}

interface IssuedCode {
  readonly tenantId: string;
  readonly user: SimulatedTenantUser & { readonly name: string };
  readonly clientId: string;
  readonly redirectUri: string;
  readonly nonce: string;
  readonly codeChallenge: string;
  readonly expiresAt: number;
}

const codeLifetimeMs = 10 * 60_000;
const idTokenLifetimeSeconds = 3600;
const globalAdministrator = tenantConsentRoles[0].id;

/** The tenant's id as the simulated platform answers it: its key when a GUID, else one derived from its name. */
export function simulatedTenantId(tenantKey: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(tenantKey)) {
    return tenantKey.toLowerCase();
  }
  const hex = createHash('sha256').update(`simulated-tenant:${tenantKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function defaultDomain(tenantKey: string): string {
  return tenantKey.includes('.') ? tenantKey : `${tenantKey.slice(0, 8)}.onmicrosoft.com`;
}

/** The user name of a tenant's default administrator (Global Administrator). */
export function defaultSimulatedAdministrator(tenantKey: string): string {
  return `admin@${defaultDomain(tenantKey)}`;
}

/** The user name of a tenant's default user, who holds no directory role. */
export function defaultSimulatedUser(tenantKey: string): string {
  return `user@${defaultDomain(tenantKey)}`;
}

/** The tenant's users, or the default administrator and user. */
export function simulatedTenantUsers(
  tenantKey: string,
  tenant: SimulatedAzureTenant,
): Record<string, SimulatedTenantUser> {
  if (tenant.users) return tenant.users;
  const admin = defaultSimulatedAdministrator(tenantKey);
  const user = defaultSimulatedUser(tenantKey);
  return {
    [admin]: {
      object_id: simulatedTenantId(admin),
      display_name: 'Tenant Administrator',
      roles: [globalAdministrator],
    },
    [user]: { object_id: simulatedTenantId(user), display_name: 'Tenant User', roles: [] },
  };
}

/** The tenant a path names, by its key or by its id. */
export function findSimulatedTenant(
  cloud: SimulatedCloud,
  named: string,
): { readonly key: string; readonly tenant: SimulatedAzureTenant } | null {
  for (const [key, tenant] of Object.entries(cloud.azure)) {
    if (key.toLowerCase() === named.toLowerCase() || simulatedTenantId(key) === named.toLowerCase()) {
      return { key, tenant };
    }
  }
  return null;
}

export function simulatedIdentityProvider(options: SimulatedIdentityOptions) {
  const now = options.now ?? (() => new Date());
  const codes = new Map<string, IssuedCode>();
  let signingKey: Promise<{ kid: string; privateJwk: JWK }> | undefined;
  const key = () => {
    signingKey ??= ensureSigningKey(options.dir);
    return signingKey;
  };
  const pattern =
    /^\/([^/]+)\/(v2\.0\/\.well-known\/openid-configuration|discovery\/v2\.0\/keys|oauth2\/v2\.0\/authorize|oauth2\/v2\.0\/token)$/;

  return async (request: SimulatedPageRequest): Promise<APIGatewayProxyResult | null> => {
    const match = pattern.exec(request.path);
    if (!match) return null;
    const found = findSimulatedTenant(
      await readSimulatedCloud(options.dir),
      decodeURIComponent(match[1] as string),
    );
    if (!found) {
      return json(400, {
        error: 'invalid_tenant',
        error_description: `AADSTS90002: Tenant '${match[1]}' not found.`,
      });
    }
    const tenantId = simulatedTenantId(found.key);
    const base = `${options.authority}/${tenantId}`;
    const endpoint = match[2] as string;
    if (endpoint.endsWith('openid-configuration')) {
      return json(200, {
        issuer: `${base}/v2.0`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        token_endpoint: `${base}/oauth2/v2.0/token`,
        jwks_uri: `${base}/discovery/v2.0/keys`,
        response_types_supported: ['code', 'id_token', 'code id_token'],
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: [
          'client_secret_post',
          'private_key_jwt',
          'client_secret_basic',
        ],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        claims_supported: [
          'sub',
          'iss',
          'aud',
          'exp',
          'iat',
          'nonce',
          'oid',
          'tid',
          'name',
          'preferred_username',
        ],
        tenant_region_scope: 'EU',
      });
    }
    if (endpoint === 'discovery/v2.0/keys') {
      const { kid, privateJwk } = await key();
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = privateJwk;
      return json(200, { keys: [{ ...publicJwk, kid, use: 'sig', alg: 'RS256' }] });
    }
    if (endpoint === 'oauth2/v2.0/authorize' && request.method === 'GET') {
      return authorize(tenantId, found.key, found.tenant, request);
    }
    if (endpoint === 'oauth2/v2.0/token' && request.method === 'POST') {
      return token(tenantId, new URLSearchParams((await request.body()) ?? ''));
    }
    return json(405, {
      error: 'invalid_request',
      error_description: 'AADSTS900561: The endpoint only accepts another method.',
    });
  };

  function authorize(
    tenantId: string,
    tenantKey: string,
    tenant: SimulatedAzureTenant,
    request: SimulatedPageRequest,
  ): APIGatewayProxyResult {
    const query = request.query;
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!redirectUri.startsWith(`${options.baseUrl}/`) || query.get('client_id') !== options.clientId) {
      return simulatedPage(
        400,
        'Invalid request',
        'AADSTS50011: The redirect URI or the application does not match.',
      );
    }
    const redirect = (params: Record<string, string>): APIGatewayProxyResult => ({
      statusCode: 302,
      headers: {
        location: `${redirectUri}?${new URLSearchParams({ ...params, state: query.get('state') ?? '' }).toString()}`,
      },
      body: '',
    });
    const challenge = query.get('code_challenge') ?? '';
    if (
      query.get('response_type') !== 'code' ||
      query.get('code_challenge_method') !== 'S256' ||
      !challenge
    ) {
      return redirect({
        error: 'invalid_request',
        error_description: 'AADSTS9002325: Proof Key for Code Exchange is required.',
      });
    }
    const users = simulatedTenantUsers(tenantKey, tenant);
    const login = query.get('login');
    if (login === 'cancel') {
      return redirect({
        error: 'access_denied',
        error_description: 'AADSTS65004: User declined to sign in.',
      });
    }
    const user = login === null ? undefined : users[login];
    if (!user) {
      const links = Object.entries(users)
        .map(([name, entry]) => {
          const params = new URLSearchParams(query);
          params.set('login', name);
          const roles =
            entry.roles.length > 0 ? `directory roles: ${entry.roles.join(', ')}` : 'no directory role';
          return `<li><a href="${escapeHtml(`${options.authority}/${tenantId}/oauth2/v2.0/authorize?${params}`)}">${escapeHtml(name)}</a> (${escapeHtml(entry.display_name)}; ${escapeHtml(roles)})</li>`;
        })
        .join('');
      return simulatedPage(
        200,
        'Sign in (simulated)',
        `Pick an account of tenant ${tenantId}.`,
        `<ul>${links}</ul>`,
      );
    }
    const code = randomBytes(32).toString('base64url');
    codes.set(code, {
      tenantId,
      user: { ...user, name: login as string },
      clientId: options.clientId,
      redirectUri,
      nonce: query.get('nonce') ?? '',
      codeChallenge: challenge,
      expiresAt: now().getTime() + codeLifetimeMs,
    });
    return redirect({ code });
  }

  async function token(tenantId: string, form: URLSearchParams): Promise<APIGatewayProxyResult> {
    if (
      form.get('client_id') !== options.clientId ||
      form.get('client_secret') !== (await options.clientSecret())
    ) {
      return json(401, {
        error: 'invalid_client',
        error_description: 'AADSTS7000215: Invalid client secret provided.',
      });
    }
    if (form.get('grant_type') !== 'authorization_code') {
      return json(400, {
        error: 'unsupported_grant_type',
        error_description: 'AADSTS70003: The grant type is not supported.',
      });
    }
    const code = form.get('code') ?? '';
    const issued = codes.get(code);
    codes.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const invalidGrant = (why: string) =>
      json(400, { error: 'invalid_grant', error_description: `AADSTS70008: ${why}` });
    if (!issued || issued.tenantId !== tenantId || issued.expiresAt <= now().getTime()) {
      return invalidGrant(
        'The provided authorization code is invalid, expired or was issued by another tenant.',
      );
    }
    if (issued.redirectUri !== form.get('redirect_uri'))
      return invalidGrant('The redirect URI does not match.');
    if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge) {
      return invalidGrant('AADSTS501481: The Code_Verifier does not match the code_challenge.');
    }
    const { kid, privateJwk } = await key();
    const issuedAt = Math.floor(now().getTime() / 1000);
    const idToken = await new SignJWT({
      ver: '2.0',
      tid: tenantId,
      oid: issued.user.object_id,
      name: issued.user.display_name,
      preferred_username: issued.user.name,
      nonce: issued.nonce,
      uti: randomBytes(16).toString('base64url'),
      ...(issued.user.roles.length > 0 ? { wids: issued.user.roles } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
      .setIssuer(`${options.authority}/${tenantId}/v2.0`)
      .setAudience(issued.clientId)
      .setSubject(
        createHash('sha256').update(`${issued.clientId}:${issued.user.object_id}`).digest('base64url'),
      )
      .setIssuedAt(issuedAt)
      .setNotBefore(issuedAt)
      .setExpirationTime(issuedAt + idTokenLifetimeSeconds)
      .setJti(randomUUID())
      .sign(await importJWK(privateJwk, 'RS256'));
    return json(200, {
      token_type: 'Bearer',
      scope: 'openid profile',
      expires_in: idTokenLifetimeSeconds,
      id_token: idToken,
    });
  }
}

/** The simulated platform's RSA key, generated once and kept in the simulated cloud document. */
async function ensureSigningKey(dir: string): Promise<{ kid: string; privateJwk: JWK }> {
  const stored = (await readSimulatedCloud(dir)).identity_provider;
  if (stored) return { kid: stored.kid, privateJwk: stored.private_jwk as JWK };
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const fresh = { kid: randomBytes(12).toString('base64url'), privateJwk: await exportJWK(privateKey) };
  const cloud = await changeSimulatedCloud(dir, (current) => {
    current.identity_provider ??= {
      kid: fresh.kid,
      private_jwk: fresh.privateJwk as Record<string, unknown>,
    };
  });
  const kept = cloud.identity_provider as NonNullable<SimulatedCloud['identity_provider']>;
  return { kid: kept.kid, privateJwk: kept.private_jwk as JWK };
}

function json(statusCode: number, body: unknown): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  };
}

export function simulatedPage(
  statusCode: number,
  title: string,
  message: string,
  extra = '',
): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${extra}</body></html>`,
  };
}
