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

/** An optional parameter given at most once (a repeated one is a malformed request). */
const optionalText = (description: string) =>
  described(z.optional(singleValue(z.string().check(z.maxLength(2048)))), description);

/**
 * #1. Every parameter is optional here: the authorization endpoint judges them itself, because
 * until the client and its redirect URI are known good an error is a page, and after that a
 * redirect to the client (RFC 6749 §4.1.2.1), never the API's 422. Unknown parameters are ignored.
 */
export const authorizeQuery = z.looseObject({
  client_id: optionalText('the OAuth client identifier'),
  redirect_uri: optionalText("one of the client's registered redirect URIs (loopback: any port)"),
  response_type: optionalText('must be `code`'),
  scope: optionalText('space-separated scopes; default `plans:read`'),
  state: optionalText('anti-forgery token, echoed back'),
  code_challenge: optionalText('BASE64URL(SHA-256(code_verifier)); required'),
  code_challenge_method: optionalText('must be `S256`'),
  resource: optionalText('RFC 8707: the API base URL (the default)'),
});
export type AuthorizeQuery = z.infer<typeof authorizeQuery>;

const formText = (max: number) => singleValue(z.string().check(z.minLength(1), z.maxLength(max)));

/** How a client authenticates in the form (client_secret_post), or identifies itself (none). */
const clientFields = {
  client_id: z.optional(clientId),
  client_secret: z.optional(formText(512)),
};

/** #2, form-encoded, by grant type. */
export const tokenRequestBody = named(
  'TokenRequest',
  z.discriminatedUnion('grant_type', [
    z.object({
      grant_type: z.literal('authorization_code'),
      code: formText(512),
      redirect_uri: described(redirectUri, 'the redirect_uri of the authorization request'),
      code_verifier: singleValue(
        z.string().check(z.regex(pkceText, 'must be 43 to 128 URL-safe characters')),
      ),
      resource: z.optional(formText(2048)),
      ...clientFields,
    }),
    z.object({
      grant_type: z.literal('refresh_token'),
      refresh_token: formText(512),
      scope: z.optional(scope),
      resource: z.optional(formText(2048)),
      ...clientFields,
    }),
  ]),
);
export type TokenRequestBody = z.infer<typeof tokenRequestBody>;

/** RFC 7009 */
export const revocationRequestBody = named(
  'RevocationRequest',
  z.object({
    token: formText(4096),
    token_type_hint: z.optional(formText(64)),
    ...clientFields,
  }),
);

/** RFC 7591 §2: the metadata a client registers (public clients only); other fields are ignored. */
export const clientRegistrationRequest = named(
  'ClientRegistrationRequest',
  z.object({
    redirect_uris: z.array(z.string().check(z.maxLength(2048))).check(z.minLength(1), z.maxLength(10)),
    client_name: z.optional(z.string().check(z.maxLength(100))),
    token_endpoint_auth_method: z.optional(z.string()),
    grant_types: z.optional(z.array(z.string()).check(z.maxLength(5))),
    response_types: z.optional(z.array(z.string()).check(z.maxLength(5))),
  }),
);

/** RFC 7591 §3.2.1 */
export const clientRegistrationResponse = named(
  'ClientRegistrationResponse',
  z.object({
    client_id: z.string(),
    client_id_issued_at: z.int(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
  }),
);

/** The fields every form of the sign-in and consent pages posts. */
const pageFormFields = {
  request: formText(64),
  csrf_token: formText(128),
};

export const signInEmailForm = z.object({ ...pageFormFields, email: formText(255) });
export const signInCodeForm = z.object({ ...pageFormFields, code: formText(16) });
export const signInRestartForm = z.object(pageFormFields);
export const consentForm = z.object({
  ...pageFormFields,
  decision: singleValue(z.enum(['allow', 'deny'])),
  org_id: z.optional(formText(64)),
});
export const signInPageQuery = z.object({
  request: described(formText(64), 'the pending authorization request'),
  notice: described(z.optional(formText(32)), 'what the previous step reported'),
});

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
