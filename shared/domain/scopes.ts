/**
 * The OAuth scopes of the API (docs/http.md). A Bearer token may do only what both its user's role
 * and its scopes allow; API-key callers carry every scope (`*`, see `hasScope`).
 */
export const oauthScopes = ['plans:read', 'plans:apply', 'org:write', 'partner:write'] as const;

export type OAuthScope = (typeof oauthScopes)[number];

/** What each scope allows, in words: for the consent page and the docs. */
export const scopeDescriptions: Readonly<Record<OAuthScope, string>> = {
  'plans:read': 'Read your commitment plans, purchase plans, purchases and commitments',
  'plans:apply': 'Apply commitment plans and purchase plans: this buys commitments and spends money',
  'org:write': "Change your organization's partner settings and invite its users",
  'partner:write': 'Register and onboard customer organizations as a partner',
};

/** The scopes of a token's space-separated `scope` claim, each once. */
export function parseScopeClaim(scope: string): string[] {
  return [...new Set(scope.split(' ').filter((name) => name !== ''))];
}
