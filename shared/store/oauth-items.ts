import type {
  AuthorizationCode,
  ClientAuthMethod,
  OAuthClient,
  RefreshToken,
  TokenFamily,
} from '../domain/oauth/records';
import type { OAuthScope } from '../domain/oauth/scopes';
import { normalizeEmail } from '../domain/orgs';
import { epochSeconds } from './rate-counters';
import type { StoredItem } from './table-client';

/** The OAuth items as written and read back by the OAuth repository (oauth.ts). */

export function isoTime(value: unknown): string {
  return new Date(Number(value) * 1000).toISOString();
}

export function toClientItem(client: OAuthClient): StoredItem {
  return {
    type: 'oauth_client',
    version: 1,
    clientId: client.clientId,
    name: client.name,
    redirectUris: [...client.redirectUris],
    authMethod: client.authMethod,
    secretHash: client.secretHash ?? undefined,
    registration: client.registration,
    createdAt: client.createdAt,
    revokedAt: client.revokedAt ?? undefined,
  };
}

export function toClient(item: StoredItem): OAuthClient {
  return {
    clientId: item.clientId as string,
    name: item.name as string,
    redirectUris: item.redirectUris as string[],
    authMethod: item.authMethod as ClientAuthMethod,
    secretHash: (item.secretHash as string | undefined) ?? null,
    registration: item.registration as OAuthClient['registration'],
    createdAt: item.createdAt as string,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
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
