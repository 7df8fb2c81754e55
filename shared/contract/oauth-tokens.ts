import * as z from 'zod/mini';
import { formText, singleValue } from './query';
import { described, named } from './schema-registry';

/**
 * The token endpoint (#2: authorization-code grant with PKCE S256, refresh-token grant) and token
 * revocation (RFC 7009). Unknown request parameters are ignored, as RFC 6749 §3.2 requires; a
 * parameter given twice is an error.
 */

/** RFC 6749 §3.3 scope: space-separated scope tokens. */
const scope = () =>
  described(
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

const clientId = () => singleValue(z.string().check(z.minLength(1), z.maxLength(255)));
const redirectUri = () => singleValue(z.url());

/** How a client authenticates in the form (client_secret_post), or identifies itself (none). */
const clientFields = () => ({
  client_id: z.optional(clientId()),
  client_secret: z.optional(formText(512)),
});

/** #2, form-encoded, by grant type. */
export const tokenRequestBody = /* @__PURE__ */ named('TokenRequest', () =>
  z.discriminatedUnion('grant_type', [
    z.object({
      grant_type: z.literal('authorization_code'),
      code: formText(512),
      redirect_uri: described(redirectUri(), 'the redirect_uri of the authorization request'),
      code_verifier: singleValue(
        z.string().check(z.regex(pkceText, 'must be 43 to 128 URL-safe characters')),
      ),
      resource: z.optional(formText(2048)),
      ...clientFields(),
    }),
    z.object({
      grant_type: z.literal('refresh_token'),
      refresh_token: formText(512),
      scope: z.optional(scope()),
      resource: z.optional(formText(2048)),
      ...clientFields(),
    }),
  ]),
);
export type TokenRequestBody = z.infer<typeof tokenRequestBody>;

/** RFC 7009 */
export const revocationRequestBody = /* @__PURE__ */ named('RevocationRequest', () =>
  z.object({
    token: formText(4096),
    token_type_hint: z.optional(formText(64)),
    ...clientFields(),
  }),
);

export const tokenResponse = /* @__PURE__ */ named('TokenResponse', () =>
  z.object({
    access_token: described(z.string(), 'a JWT (ES256)'),
    token_type: z.literal('Bearer'),
    expires_in: described(z.int().check(z.gte(1)), 'seconds until the access token expires'),
    refresh_token: described(z.string(), 'single use: each refresh answers a new one'),
    scope: described(z.string(), 'the granted scopes, space-separated'),
  }),
);
export type TokenResponse = z.infer<typeof tokenResponse>;
