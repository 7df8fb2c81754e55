import type { PublicKeySource } from '../auth/access-token-verification';
import type {
  AuthorizationServerMetadata,
  JsonWebKeySet,
  ProtectedResourceMetadata,
} from '../contract/oauth';
import { oauthScopes } from '../domain/scopes';

/**
 * The OAuth documents (docs/oauth.md), all derived from the issuer, the API's base URL, so that the
 * metadata, the tokens' `iss` and `aud` and the 401 challenges always agree. The authorization
 * server lives at the API's root: its metadata is `<issuer>/.well-known/oauth-authorization-server`.
 */

/** Where the API's documentation is served: its OpenAPI document. */
const documentationPath = '/openapi.json';

/** Where the issuer publishes its public keys (#4): the metadata's `jwks_uri`. */
export function jwksUri(issuer: string): string {
  return `${issuer}/.well-known/jwks.json`;
}

/** #3, RFC 8414. Only what the server does: code flow with PKCE S256, refresh rotation, iss in responses. */
export function authorizationServerMetadata(issuer: string): AuthorizationServerMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    jwks_uri: jwksUri(issuer),
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    scopes_supported: [...oauthScopes],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}${documentationPath}`,
  };
}

/** RFC 9728: the API is its own resource, and its own authorization server. */
export function protectedResourceMetadata(issuer: string): ProtectedResourceMetadata {
  return {
    resource: issuer,
    authorization_servers: [issuer],
    scopes_supported: [...oauthScopes],
    bearer_methods_supported: ['header'],
    resource_documentation: `${issuer}${documentationPath}`,
  };
}

/**
 * #4: the public keys tokens verify with (the current one, and the previous one during a
 * rotation). Each entry is rebuilt from its public members only, so no private member can leak
 * whatever the key source hands over.
 */
export async function jsonWebKeySet(keys: PublicKeySource): Promise<JsonWebKeySet> {
  const published = await keys.publicKeys();
  return {
    keys: published.map(({ kty, crv, x, y, kid, use, alg }) => ({ kty, crv, x, y, kid, use, alg })),
  };
}
