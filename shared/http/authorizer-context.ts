import type { Principal } from '../domain/principal';

/**
 * The authorizer's side of the principal hand-over, apart from the decoding side
 * (authorizer-principal.ts) so the authorizer bundle carries no schema library: it only encodes
 * what it authenticated itself; the functions decode and check what API Gateway hands them.
 */

/**
 * The authorizer hands the principal to the handlers as one JSON string under this key of its
 * context (API Gateway passes only flat string, number and boolean context values).
 */
export const authorizerPrincipalKey = 'principal';

export function encodeAuthorizerPrincipal(principal: Principal): string {
  return JSON.stringify(principal);
}

/**
 * For a Bearer token, the OAuth client it was issued to, under this key of the authorizer's
 * context: the functions throttle Bearer requests per client and org (bearer-throttle.ts).
 * Absent for API keys.
 */
export const authorizerOAuthClientKey = 'oauthClient';
