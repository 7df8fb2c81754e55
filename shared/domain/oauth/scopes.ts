/**
 * The scopes an access token may carry (DESIGN §5): what each lets a token do, in the words the
 * consent page shows. A token acts for its user and may do only what both the user's role and
 * its scopes allow.
 */
export const oauthScopes = ['plans:read', 'plans:apply', 'org:write', 'partner:write'] as const;
export type OAuthScope = (typeof oauthScopes)[number];

export const scopeWords: Readonly<Record<OAuthScope, string>> = {
  'plans:read': 'Read your commitment plans, their line items, resource matches, purchases and chart',
  'plans:apply': 'Apply plans and purchase commitments (spends money)',
  'org:write': "Change your organization's settings and invite users",
  'partner:write': 'Register and manage customer organizations as a partner',
};

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
