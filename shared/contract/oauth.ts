import * as z from 'zod/mini';
import { singleValue } from './query';
import { described, named } from './schema-registry';

/**
 * The OAuth 2.0 authorization server (#1 to #4): authorization-code grant with PKCE (S256),
 * refresh-token grant, RFC 8414 metadata and the JWKS. Unknown request parameters are ignored,
 * as RFC 6749 §3.1 and §3.2 require; a parameter given twice is an error.
 */

/** RFC 6749 §3.3 scope: space-separated scope tokens. */
const scope = described(
  singleValue(
    z
      .string()
      .check(
        z.regex(
          /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/,
          'must be space-separated scope names',
        ),
      ),
  ),
  'space-separated scopes',
);

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const pkceText = /^[A-Za-z0-9\-._~]{43,128}$/;

const clientId = singleValue(z.string().check(z.minLength(1), z.maxLength(255)));
const redirectUri = singleValue(z.url());

/** #1 */
export const authorizeQuery = z.object({
  client_id: clientId,
  redirect_uri: redirectUri,
  response_type: singleValue(z.literal('code')),
  scope,
  state: described(
    z.optional(singleValue(z.string().check(z.minLength(1), z.maxLength(1024)))),
    'anti-forgery token, echoed back',
  ),
  code_challenge: described(
    singleValue(z.string().check(z.regex(pkceText, 'must be 43 to 128 URL-safe characters'))),
    'BASE64URL(SHA-256(code_verifier))',
  ),
  code_challenge_method: singleValue(z.literal('S256')),
});
export type AuthorizeQuery = z.infer<typeof authorizeQuery>;

/** #2, form-encoded, by grant type. */
export const tokenRequestBody = named(
  'TokenRequest',
  z.discriminatedUnion('grant_type', [
    z.object({
      grant_type: z.literal('authorization_code'),
      code: singleValue(z.string().check(z.minLength(1), z.maxLength(512))),
      redirect_uri: described(redirectUri, 'the redirect_uri of the authorization request'),
      client_id: clientId,
      code_verifier: singleValue(
        z.string().check(z.regex(pkceText, 'must be 43 to 128 URL-safe characters')),
      ),
    }),
    z.object({
      grant_type: z.literal('refresh_token'),
      refresh_token: singleValue(z.string().check(z.minLength(1), z.maxLength(512))),
      client_id: clientId,
    }),
  ]),
);
export type TokenRequestBody = z.infer<typeof tokenRequestBody>;

export const tokenResponse = named(
  'TokenResponse',
  z.object({
    access_token: described(z.string(), 'a JWT (ES256)'),
    token_type: z.literal('Bearer'),
    expires_in: described(z.int().check(z.gte(1)), 'seconds until the access token expires'),
    refresh_token: described(z.string(), 'single use: each refresh answers a new one'),
    scope: described(z.string(), 'the granted scopes, space-separated'),
  }),
);
export type TokenResponse = z.infer<typeof tokenResponse>;

/** #3, RFC 8414: the fields the spec lists, and those a standards-following client looks for. */
export const authorizationServerMetadata = named(
  'AuthorizationServerMetadata',
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
export const publicJwk = named(
  'JsonWebKey',
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
export const jsonWebKeySet = named('JsonWebKeySet', z.object({ keys: z.array(publicJwk) }));
export type JsonWebKeySet = z.infer<typeof jsonWebKeySet>;

/** RFC 9728 protected-resource metadata: where clients of the API find its authorization server. */
export const protectedResourceMetadata = named(
  'ProtectedResourceMetadata',
  z.object({
    resource: described(z.url(), "the API's base URL: the audience of its access tokens"),
    authorization_servers: z.array(z.url()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    resource_documentation: z.url(),
  }),
);
export type ProtectedResourceMetadata = z.infer<typeof protectedResourceMetadata>;
