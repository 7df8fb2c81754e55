import * as z from 'zod/mini';
import { described, named } from './schema-registry';

/**
 * The OAuth documents: the authorization server metadata (#3, RFC 8414), the JWKS (#4) and the
 * protected-resource metadata (RFC 9728). The requests' schemas are in oauth-sign-in.ts,
 * oauth-tokens.ts and oauth-registration.ts, one module per function: a named schema registers
 * itself when its module loads, so a bundle that imports a module keeps every schema in it (and
 * the zod code they use).
 */

/** #3, RFC 8414: the fields the spec lists, and those a standards-following client looks for. */
export const authorizationServerMetadata = /* @__PURE__ */ named('AuthorizationServerMetadata', () =>
  z.object({
    issuer: described(z.url(), "the API's base URL, byte for byte the tokens' iss"),
    authorization_endpoint: z.url(),
    token_endpoint: z.url(),
    jwks_uri: z.url(),
    registration_endpoint: described(z.url(), 'dynamic client registration (RFC 7591)'),
    revocation_endpoint: described(z.url(), 'token revocation (RFC 7009)'),
    response_types_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: described(
      z.boolean(),
      'RFC 9207: every authorization response carries iss',
    ),
    service_documentation: z.url(),
  }),
);
export type AuthorizationServerMetadata = z.infer<typeof authorizationServerMetadata>;

/** One public signing key (RFC 7517): the service signs with ES256 on P-256. */
export const publicJwk = /* @__PURE__ */ named('JsonWebKey', () =>
  z.object({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: z.base64url(),
    y: z.base64url(),
    kid: z.string(),
    use: z.literal('sig'),
    alg: z.literal('ES256'),
  }),
);
export type PublicJwk = z.infer<typeof publicJwk>;

/** #4 */
export const jsonWebKeySet = /* @__PURE__ */ named('JsonWebKeySet', () =>
  z.object({ keys: z.array(publicJwk) }),
);
export type JsonWebKeySet = z.infer<typeof jsonWebKeySet>;

/** RFC 9728 protected-resource metadata: where clients of the API find its authorization server. */
export const protectedResourceMetadata = /* @__PURE__ */ named('ProtectedResourceMetadata', () =>
  z.object({
    resource: described(z.url(), "the API's base URL: the audience of its access tokens"),
    authorization_servers: z.array(z.url()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    resource_documentation: z.url(),
  }),
);
export type ProtectedResourceMetadata = z.infer<typeof protectedResourceMetadata>;
