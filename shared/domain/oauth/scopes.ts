import { type OAuthScope, oauthScopes } from '../scopes';

/** The authorization server's reading of scope parameters; the scopes and their words are in ../scopes.ts. */
export type { OAuthScope };
export { oauthScopes };

/**
 * What a request that names no scope is granted (RFC 6749 §3.3 lets the server choose a default
 * rather than fail): reading, the least a client can do.
 */
export const defaultScope: readonly OAuthScope[] = ['plans:read'];

export function isOAuthScope(value: string): value is OAuthScope {
  return (oauthScopes as readonly string[]).includes(value);
}

/**
 * The scopes a space-separated `scope` parameter names, each once, in the service's order; null
 * when it names one the service does not know (`invalid_scope`). Absent or blank: the default.
 */
export function parseScope(scope: string | undefined): OAuthScope[] | null {
  const names = (scope ?? '').split(' ').filter((name) => name !== '');
  if (names.length === 0) return [...defaultScope];
  if (!names.every(isOAuthScope)) return null;
  return oauthScopes.filter((known) => names.includes(known));
}

export function formatScope(scopes: readonly OAuthScope[]): string {
  return scopes.join(' ');
}
