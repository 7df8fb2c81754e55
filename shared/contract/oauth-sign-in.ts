import * as z from 'zod/mini';
import { formText, singleValue } from './query';
import { described } from './schema-registry';

/**
 * The authorization server's browser side (docs/oauth.md): the authorization request (#1) and the
 * forms of the sign-in and consent pages. Unknown request parameters are ignored, as RFC 6749
 * §3.1 requires; a parameter given twice is an error. A module of its own, apart from the token,
 * registration and document schemas, so that each OAuth function bundles its own schemas only
 * (oauth.ts says why).
 */

/** An optional parameter given at most once (a repeated one is a malformed request). */
const optionalText = (description: string) =>
  described(z.optional(singleValue(z.string().check(z.maxLength(2048)))), description);

/**
 * #1. Every parameter is optional here: the authorization endpoint judges them itself, because
 * until the client and its redirect URI are known good an error is a page, and after that a
 * redirect to the client (RFC 6749 §4.1.2.1), never the API's 422. Unknown parameters are ignored.
 */
export const authorizeQuery = /* @__PURE__ */ z.lazy(() =>
  z.looseObject({
    client_id: optionalText('the OAuth client identifier'),
    redirect_uri: optionalText("one of the client's registered redirect URIs (loopback: any port)"),
    response_type: optionalText('must be `code`'),
    scope: optionalText('space-separated scopes; default `plans:read`'),
    state: optionalText('anti-forgery token, echoed back'),
    code_challenge: optionalText('BASE64URL(SHA-256(code_verifier)); required'),
    code_challenge_method: optionalText('must be `S256`'),
    resource: optionalText('RFC 8707: the API base URL (the default)'),
  }),
);
export type AuthorizeQuery = z.infer<typeof authorizeQuery>;

/** The fields every form of the sign-in and consent pages posts. */
const pageFormFields = () => ({
  request: formText(64),
  csrf_token: formText(128),
});

export const signInEmailForm = /* @__PURE__ */ z.lazy(() =>
  z.object({ ...pageFormFields(), email: formText(255) }),
);
export const signInCodeForm = /* @__PURE__ */ z.lazy(() =>
  z.object({ ...pageFormFields(), code: formText(16) }),
);
export const signInRestartForm = /* @__PURE__ */ z.lazy(() => z.object(pageFormFields()));
export const consentForm = /* @__PURE__ */ z.lazy(() =>
  z.object({
    ...pageFormFields(),
    decision: singleValue(z.enum(['allow', 'deny'])),
    org_id: z.optional(formText(64)),
  }),
);
export const signInPageQuery = /* @__PURE__ */ z.lazy(() =>
  z.object({
    request: described(formText(64), 'the pending authorization request'),
    notice: described(z.optional(formText(32)), 'what the previous step reported'),
  }),
);
