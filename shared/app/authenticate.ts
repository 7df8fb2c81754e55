import { AccessTokenRefusedError, type AccessTokenVerifier } from '../auth/access-token-verification';
import {
  type ApiKeyOwner,
  oauthClientsUsageIdentifier,
  parseApiKey,
  secretMatches,
  usageIdentifierOfKey,
} from '../auth/api-keys';
import type { Principal } from '../domain/principal';
import { type OAuthScope, oauthScopes, parseScopeClaim } from '../domain/scopes';
import type { ContextWith } from './ports';

/** API-key callers are not limited by OAuth scopes. */
const API_KEY_SCOPES = ['*'] as const;

/** An authenticated caller: who it acts as, and its throttle bucket. */
export interface AuthenticatedCaller {
  readonly principal: Principal;
  /**
   * The API Gateway usage-plan key of its API key (`usageIdentifierOfKey`), or for a Bearer token
   * the one key all OAuth clients share (`oauthClientsUsageIdentifier`).
   */
  readonly usageIdentifier: string;
  /** For a Bearer token, the OAuth client it was issued to: the service throttles per client and org. */
  readonly oauthClientId?: string;
}

/** What a request presents: the `x-api-key` header, the `Authorization` header. */
export interface PresentedCredentials {
  readonly apiKey?: string | undefined;
  readonly authorization?: string | undefined;
}

/**
 * Authenticates a request by its API key or, when it sends none, its Bearer access token
 * (docs/http.md): both are accepted wherever either is. Answers null for every refusal alike.
 */
export async function authenticateRequest(
  ctx: ContextWith<'apiKeys' | 'memberships' | 'orgs' | 'tokenFamilyRevocations'>,
  accessTokens: () => AccessTokenVerifier,
  credentials: PresentedCredentials,
): Promise<AuthenticatedCaller | null> {
  if (credentials.apiKey !== undefined) return authenticateCaller(ctx, credentials.apiKey);
  const token = bearerTokenOf(credentials.authorization);
  return token === null ? null : authenticateBearer(ctx, accessTokens(), token);
}

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1: the scheme in any case). */
export function bearerTokenOf(authorization: string | undefined): string | null {
  const match =
    authorization === undefined ? null : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  return match?.[1] ?? null;
}

/**
 * Resolves an access token to the user it acts for, from the token and stored data: the token
 * must verify (signature with the published keys, `iss`, `aud`, `exp`), its refresh-token family
 * must not be revoked, and its user must still be a member of its org, whose current role the
 * principal carries (a demoted user's tokens lose what the role loses at once). Its scopes are
 * the token's known scopes only: a token never carries the API keys' `*`.
 */
export async function authenticateBearer(
  ctx: ContextWith<'memberships' | 'tokenFamilyRevocations'>,
  accessTokens: AccessTokenVerifier,
  token: string,
): Promise<AuthenticatedCaller | null> {
  let claims: Awaited<ReturnType<AccessTokenVerifier['verify']>>;
  try {
    claims = await accessTokens.verify(token);
  } catch (error) {
    if (error instanceof AccessTokenRefusedError) return null;
    throw error;
  }
  // Both reads at once: a Bearer request costs one round trip more than none.
  const [revoked, membership] = await Promise.all([
    ctx.repos.tokenFamilyRevocations.isRevoked(claims.fam),
    ctx.repos.memberships.get(claims.org_id, claims.sub),
  ]);
  if (revoked || !membership) return null;
  const known: readonly string[] = oauthScopes;
  const scopes = parseScopeClaim(claims.scope).filter((scope): scope is OAuthScope => known.includes(scope));
  return {
    principal: {
      kind: 'user',
      orgId: membership.orgId,
      userId: membership.email,
      role: membership.role,
      scopes,
    },
    usageIdentifier: oauthClientsUsageIdentifier,
    oauthClientId: claims.client_id,
  };
}

/** The principal a presented API key acts as (see `authenticateCaller`); null when it is refused. */
export async function authenticateApiKey(
  ctx: ContextWith<'apiKeys' | 'memberships' | 'orgs'>,
  apiKey: string | undefined,
): Promise<Principal | null> {
  return (await authenticateCaller(ctx, apiKey))?.principal ?? null;
}

/**
 * Resolves a presented API key to the principal it acts as, from stored data only: the key must
 * exist, be unrevoked and match in constant time; a user key's role is read from its current
 * membership (a removed member's key stops working); a partner key needs its org to still be a
 * partner. Answers null for every failure alike, so callers cannot tell which check failed.
 */
export async function authenticateCaller(
  ctx: ContextWith<'apiKeys' | 'memberships' | 'orgs'>,
  apiKey: string | undefined,
): Promise<AuthenticatedCaller | null> {
  const parsed = apiKey ? parseApiKey(apiKey.trim()) : null;
  if (!parsed) return null;
  const record = await ctx.repos.apiKeys.get(parsed.keyId);
  if (!record || record.revokedAt !== null || !secretMatches(parsed.secret, record.secretHash)) return null;

  const principal = await principalOf(ctx, record.owner);
  if (!principal) return null;
  // Best effort: a failed bookkeeping write must not refuse a valid key.
  await ctx.repos.apiKeys.markUsed(record.keyId, ctx.clock.now().toISOString()).catch(() => undefined);
  return { principal, usageIdentifier: usageIdentifierOfKey(record.keyId) };
}

async function principalOf(
  ctx: ContextWith<'apiKeys' | 'memberships' | 'orgs'>,
  owner: ApiKeyOwner,
): Promise<Principal | null> {
  if (owner.kind === 'partner') {
    const org = await ctx.repos.orgs.placement(owner.orgId);
    return org?.isPartner ? { kind: 'partner', orgId: org.id, scopes: API_KEY_SCOPES } : null;
  }
  const membership = await ctx.repos.memberships.get(owner.orgId, owner.email);
  if (!membership) return null;
  return {
    kind: 'user',
    orgId: membership.orgId,
    userId: membership.email,
    role: membership.role,
    scopes: API_KEY_SCOPES,
  };
}
