import { InsufficientScopeError, UnauthenticatedError } from '../domain/errors';

/**
 * The `WWW-Authenticate` challenges of the API (RFC 6750 §3, RFC 9728 §5.1): a 401 points the
 * client at the protected-resource metadata, where it finds the authorization server (MCP
 * clients discover the server this way); a 403 for a missing scope names the scope to ask for.
 */
export const wwwAuthenticateHeader = 'www-authenticate';

/** Where the RFC 9728 protected-resource metadata is served, under the API's base URL. */
export const protectedResourceMetadataPath = '/.well-known/oauth-protected-resource';

export function protectedResourceMetadataUrl(baseUrl: string): string {
  return `${baseUrl}${protectedResourceMetadataPath}`;
}

/** The challenge of a 401: `Bearer resource_metadata="<base>/.well-known/oauth-protected-resource"`. */
export function unauthenticatedChallenge(baseUrl: string | undefined): string {
  return baseUrl === undefined
    ? 'Bearer'
    : `Bearer resource_metadata="${protectedResourceMetadataUrl(baseUrl)}"`;
}

export function insufficientScopeChallenge(scope: string): string {
  return `Bearer error="insufficient_scope", scope="${scope}"`;
}

/**
 * The challenge headers of an error a handler answers. A handler is not told the API's base URL:
 * its 401 (a route reached without the authorizer's principal, which API Gateway never lets
 * happen) carries a bare `Bearer` challenge; the 401s clients meet are the gateway's and the
 * local server's, which name the metadata.
 */
export function challengeHeadersOf(error: unknown): Record<string, string> {
  if (error instanceof InsufficientScopeError) {
    return { [wwwAuthenticateHeader]: insufficientScopeChallenge(error.scope) };
  }
  if (error instanceof UnauthenticatedError) {
    return { [wwwAuthenticateHeader]: unauthenticatedChallenge(undefined) };
  }
  return {};
}
