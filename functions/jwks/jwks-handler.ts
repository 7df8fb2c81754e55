import {
  authorizationServerMetadata,
  jsonWebKeySet,
  protectedResourceMetadata,
} from '../../shared/app/oauth-metadata';
import { jwksOperations } from '../../shared/contract/operations/jwks';
import { createGroupHandler } from '../../shared/http/group-handler';
import { withHeaders } from '../../shared/http/operation';
import type { OAuthKeys } from '../../shared/runtime/oauth-keys';

/**
 * Clients and verifiers may keep these documents 5 minutes (docs/oauth.md); a rotation publishes the
 * new key as the current one and keeps the previous one published, so a cached set still verifies
 * every unexpired token, and verifiers read the keys again on an unknown `kid`.
 */
const cacheFor5Minutes = { 'cache-control': 'max-age=300' };

/**
 * The public OAuth documents: the authorization server metadata (#3, RFC 8414, from the issuer
 * and the routes), the JWKS (#4) and the protected-resource metadata (RFC 9728). No table, no
 * secret.
 */
export function createJwksHandler(keys: () => Pick<OAuthKeys, 'issuer' | 'signer'>) {
  return createGroupHandler(jwksOperations, {
    getAuthorizationServerMetadata: async () =>
      withHeaders(authorizationServerMetadata(keys().issuer), cacheFor5Minutes),
    getJwks: async () => withHeaders(await jsonWebKeySet(keys().signer), cacheFor5Minutes),
    getProtectedResourceMetadata: async () =>
      withHeaders(protectedResourceMetadata(keys().issuer), cacheFor5Minutes),
  });
}
