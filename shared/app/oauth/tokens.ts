import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { ACCESS_TOKEN_SECONDS, issueAccessToken } from '../../auth/access-tokens';
import { randomSecret, secretHash } from '../../auth/oauth-secrets';
import { OAuthError } from '../../domain/oauth/errors';
import { verifiesChallenge } from '../../domain/oauth/pkce';
import {
  hasExpired,
  type OAuthClient,
  oauthLifetimes,
  secondsAfter,
  type TokenFamily,
} from '../../domain/oauth/records';
import { formatScope, type OAuthScope, parseScope } from '../../domain/oauth/scopes';
import type { ContextWith, Repositories } from '../ports';
import type { OAuthContext } from './oauth-context';

/**
 * #2, the token endpoint (docs/oauth.md, RFC 9700 §4.14): codes are single-use, 60 s, bound to the
 * client, the redirect URI and the PKCE challenge, and a replayed code revokes what it issued;
 * refresh tokens rotate on every use and a reused one revokes its whole family. Every token of
 * one authorization belongs to its family; access tokens name it in their `fam` claim, which the
 * authorizer checks.
 */

/** What issuing and revoking tokens run with: the repositories named, the issuer and the signer. */
type TokenSigningContext<K extends keyof Repositories> = ContextWith<K> &
  Pick<OAuthContext, 'issuer' | 'signer'>;

export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly scope: string;
}

export interface CodeGrant {
  readonly code: string;
  readonly redirectUri: string;
  readonly codeVerifier: string;
  readonly resource?: string | undefined;
}

const invalidCode = 'The authorization code is invalid, expired or used.';

export async function exchangeCode(
  ctx: TokenSigningContext<'oauthGrants'>,
  client: OAuthClient,
  grant: CodeGrant,
): Promise<TokenResponse> {
  const now = ctx.clock.now();
  // Spent first, in one conditional write: of two concurrent exchanges exactly one goes on.
  const spent = await ctx.repos.oauthGrants.spendCode(secretHash(grant.code), now.toISOString());
  if (spent.kind === 'unknown') throw new OAuthError('invalid_grant', invalidCode);
  const code = spent.item;
  if (spent.kind === 'again') {
    await ctx.repos.oauthGrants.revokeFamily(code.familyId, now.toISOString());
    throw new OAuthError('invalid_grant', invalidCode);
  }
  if (code.clientId !== client.clientId || hasExpired(code.expiresAt, now)) {
    throw new OAuthError('invalid_grant', invalidCode);
  }
  if (grant.redirectUri !== code.redirectUri) {
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request’s.');
  }
  if (!verifiesChallenge(grant.codeVerifier, code.codeChallenge)) {
    throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge.');
  }
  if (grant.resource !== undefined && grant.resource !== code.resource) {
    throw new OAuthError('invalid_target', `resource must be ${code.resource}.`);
  }
  const family: TokenFamily = {
    familyId: code.familyId,
    clientId: client.clientId,
    email: code.email,
    orgId: code.orgId,
    scopes: code.scopes,
    resource: code.resource,
    createdAt: now.toISOString(),
    expiresAt: secondsAfter(now, oauthLifetimes.refreshAbsolute),
    revoked: false,
    revokedAt: null,
  };
  // Exists already only when a replay of this code revoked it first.
  if (!(await ctx.repos.oauthGrants.createFamily(family))) throw new OAuthError('invalid_grant', invalidCode);
  return issueTokens(ctx, family, family.scopes, now);
}

export interface RefreshGrant {
  readonly refreshToken: string;
  /** A narrower scope for the new access token (RFC 6749 §6); the family keeps its own. */
  readonly scope?: string | undefined;
  readonly resource?: string | undefined;
}

const invalidRefreshToken = 'The refresh token is invalid, expired or revoked.';

export async function refreshTokens(
  ctx: TokenSigningContext<'oauthGrants' | 'memberships'>,
  client: OAuthClient,
  grant: RefreshGrant,
): Promise<TokenResponse> {
  const now = ctx.clock.now();
  const tokenHash = secretHash(grant.refreshToken);
  const token = await ctx.repos.oauthGrants.getRefreshToken(tokenHash);
  // Another client's token is refused before it is spent: presenting it must not end the
  // rightful client's chain.
  if (token === null || token.clientId !== client.clientId) {
    throw new OAuthError('invalid_grant', invalidRefreshToken);
  }
  const family = await ctx.repos.oauthGrants.getFamily(token.familyId);
  // A request refused for what it asks (scope, resource) is refused before the token is spent, so
  // the client's corrected retry with the same token is no reuse (RFC 9700 §4.14.2: reuse
  // detection is for a token presented twice, not for a request refused once). A token already
  // rotated goes on to the spend, whose reuse detection revokes the family.
  const live =
    family !== null &&
    !family.revoked &&
    !hasExpired(token.expiresAt, now) &&
    !hasExpired(family.expiresAt, now);
  const asked = live && token.rotatedAt === null ? askedOfFamily(family, grant) : null;
  const spent = await ctx.repos.oauthGrants.spendRefreshToken(tokenHash, now.toISOString());
  if (spent.kind !== 'first') {
    if (spent.kind === 'again') await ctx.repos.oauthGrants.revokeFamily(token.familyId, now.toISOString());
    throw new OAuthError('invalid_grant', invalidRefreshToken);
  }
  if (family === null || asked === null) throw new OAuthError('invalid_grant', invalidRefreshToken);
  // The user may have left the org since: the grant ends with the membership.
  if ((await ctx.repos.memberships.get(family.orgId, family.email)) === null) {
    await ctx.repos.oauthGrants.revokeFamily(family.familyId, now.toISOString());
    throw new OAuthError('invalid_grant', invalidRefreshToken);
  }
  return issueTokens(ctx, family, asked, now);
}

/**
 * The scopes a refresh asks of its family: the family's, or a narrower list (RFC 6749 §6), for the
 * family's resource only. Refused with `invalid_scope` or `invalid_target` otherwise.
 */
function askedOfFamily(family: TokenFamily, grant: RefreshGrant): readonly OAuthScope[] {
  if (grant.resource !== undefined && grant.resource !== family.resource) {
    throw new OAuthError('invalid_target', `resource must be ${family.resource}.`);
  }
  if (grant.scope === undefined) return family.scopes;
  const asked = parseScope(grant.scope);
  if (asked === null || !asked.every((scope) => family.scopes.includes(scope))) {
    throw new OAuthError('invalid_scope', 'A refresh may only narrow the granted scope.');
  }
  return asked;
}

async function issueTokens(
  ctx: TokenSigningContext<'oauthGrants'>,
  family: TokenFamily,
  scopes: readonly OAuthScope[],
  now: Date,
): Promise<TokenResponse> {
  const refreshToken = randomSecret();
  const idleEnd = secondsAfter(now, oauthLifetimes.refreshIdle);
  await ctx.repos.oauthGrants.putRefreshToken({
    tokenHash: secretHash(refreshToken),
    familyId: family.familyId,
    clientId: family.clientId,
    createdAt: now.toISOString(),
    expiresAt: Date.parse(idleEnd) < Date.parse(family.expiresAt) ? idleEnd : family.expiresAt,
    rotatedAt: null,
  });
  const iat = Math.floor(now.getTime() / 1000);
  const scope = formatScope(scopes);
  const accessToken = await issueAccessToken(ctx.signer, {
    iss: ctx.issuer,
    sub: family.email,
    aud: family.resource,
    org_id: family.orgId,
    scope,
    client_id: family.clientId,
    jti: ctx.ids.uuid(),
    fam: family.familyId,
    iat,
    exp: iat + ACCESS_TOKEN_SECONDS,
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refreshToken,
    scope,
  };
}

/**
 * RFC 7009: revokes the family of a refresh token or access token the client holds. Tokens that
 * are unknown, another client's, expired or malformed are answered alike (success), as §2.2 asks.
 */
export async function revokeToken(
  ctx: TokenSigningContext<'oauthGrants'>,
  client: OAuthClient,
  token: string,
  hint: string | undefined,
): Promise<void> {
  const at = ctx.clock.now().toISOString();
  const looksLikeJwt = token.split('.').length === 3;
  if (hint !== 'access_token' || !looksLikeJwt) {
    const refresh = await ctx.repos.oauthGrants.getRefreshToken(secretHash(token));
    if (refresh !== null) {
      if (refresh.clientId === client.clientId)
        await ctx.repos.oauthGrants.revokeFamily(refresh.familyId, at);
      return;
    }
  }
  if (!looksLikeJwt) return;
  const familyId = await familyOfAccessToken(ctx, token, client.clientId);
  if (familyId !== null) await ctx.repos.oauthGrants.revokeFamily(familyId, at);
}

/** The family an access token of ours, issued to `clientId`, names; null for any other token. */
async function familyOfAccessToken(
  ctx: Pick<OAuthContext, 'issuer' | 'signer'>,
  token: string,
  clientId: string,
): Promise<string | null> {
  try {
    if (decodeJwt(token).iss !== ctx.issuer) return null;
    const keys = createLocalJWKSet({ keys: [...(await ctx.signer.publicKeys())] });
    // Expired tokens may be revoked too: their family may still hold live refresh tokens.
    const { payload } = await jwtVerify(token, keys, {
      issuer: ctx.issuer,
      algorithms: ['ES256'],
      clockTolerance: Number.MAX_SAFE_INTEGER,
    });
    return payload.client_id === clientId && typeof payload.fam === 'string' ? payload.fam : null;
  } catch {
    return null;
  }
}
