import type { AuthorizationCode, RefreshToken, TokenFamily } from '../../domain/oauth/records';
import type { OAuthScope } from '../../domain/oauth/scopes';
import { normalizeEmail } from '../../domain/orgs';
import { epochSeconds, isoTime } from '../rate-counters';
import type { StoredItem } from '../table-client';

/**
 * The grant items (docs/data-model.md, OAuth) as the grants repository (grants.ts) reads and
 * writes them; the sign-in repository writes the authorization code the consent issues.
 */

export function toCodeItem(code: AuthorizationCode): StoredItem {
  return {
    type: 'oauth_code',
    version: 1,
    clientId: code.clientId,
    redirectUri: code.redirectUri,
    codeChallenge: code.codeChallenge,
    email: normalizeEmail(code.email),
    orgId: code.orgId,
    scopes: [...code.scopes],
    resource: code.resource,
    familyId: code.familyId,
    expiresAt: epochSeconds(code.expiresAt),
  };
}

export function toCode(codeHash: string, item: StoredItem): AuthorizationCode {
  return {
    codeHash,
    clientId: item.clientId as string,
    redirectUri: item.redirectUri as string,
    codeChallenge: item.codeChallenge as string,
    email: item.email as string,
    orgId: item.orgId as string,
    scopes: item.scopes as OAuthScope[],
    resource: item.resource as string,
    familyId: item.familyId as string,
    expiresAt: isoTime(item.expiresAt),
    usedAt: (item.usedAt as string | undefined) ?? null,
  };
}

/**
 * The family item. Its `type`, `familyId`, `revoked` (a boolean, always present) and `revokedAt`
 * are what the authorizer reads (docs/oauth.md): keep their names and types.
 */
export function toFamilyItem(family: TokenFamily): StoredItem {
  return {
    type: 'oauth_family',
    version: 1,
    familyId: family.familyId,
    clientId: family.clientId,
    email: normalizeEmail(family.email),
    orgId: family.orgId,
    scopes: [...family.scopes],
    resource: family.resource,
    createdAt: family.createdAt,
    expiresAt: epochSeconds(family.expiresAt),
    revoked: family.revoked,
    revokedAt: family.revokedAt ?? undefined,
  };
}

export function toFamily(item: StoredItem): TokenFamily {
  return {
    familyId: item.familyId as string,
    clientId: item.clientId as string,
    email: item.email as string,
    orgId: item.orgId as string,
    scopes: item.scopes as OAuthScope[],
    resource: item.resource as string,
    createdAt: item.createdAt as string,
    expiresAt: isoTime(item.expiresAt),
    revoked: item.revoked === true,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
  };
}

export function toRefreshTokenItem(token: RefreshToken): StoredItem {
  return {
    type: 'oauth_refresh_token',
    version: 1,
    familyId: token.familyId,
    clientId: token.clientId,
    createdAt: token.createdAt,
    expiresAt: epochSeconds(token.expiresAt),
  };
}

export function toRefreshToken(tokenHash: string, item: StoredItem): RefreshToken {
  return {
    tokenHash,
    familyId: item.familyId as string,
    clientId: item.clientId as string,
    createdAt: item.createdAt as string,
    expiresAt: isoTime(item.expiresAt),
    rotatedAt: (item.rotatedAt as string | undefined) ?? null,
  };
}
