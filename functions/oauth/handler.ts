import { startAuthorization } from '../../shared/app/oauth/authorization';
import { authenticateClient, registerClient } from '../../shared/app/oauth/clients';
import {
  decideAuthorization,
  requestSignInCode,
  restartSignIn,
  type SignInNotice,
  signInPage,
  verifySignInCode,
} from '../../shared/app/oauth/sign-in';
import { exchangeCode, refreshTokens, revokeToken } from '../../shared/app/oauth/tokens';
import { authorizationServerMetadata } from '../../shared/app/oauth-metadata';
import { oauthOperations } from '../../shared/contract/operations/oauth';
import { oauthLifetimes } from '../../shared/domain/oauth/records';
import { createGroupHandler } from '../../shared/http/group-handler';
import { errorPage, pageHeaders } from '../../shared/http/html';
import { noStoreHeaders, RawResponse, redirectTo, withHeaders } from '../../shared/http/operation';
import { functionContext } from '../../shared/runtime/current';
import { oauthIssuer, oauthContext as withOAuthKeys } from '../../shared/runtime/oauth';
import { membershipRepository, oauthRepository, orgRepository } from '../../shared/store/store';
import { isSignInNotice, signInPageHtml } from './pages';
import { sessionCookie, sessionTokenOf } from './session-cookie';

/** The repositories this function's use cases read and write; it bundles no other. */
const appContext = functionContext({
  oauth: oauthRepository,
  memberships: membershipRepository,
  orgs: orgRepository,
});

/** The use cases' context: the function's own with the issuer, the signer and the mailer. */
const oauthContext = () => withOAuthKeys(appContext());

/** The consent page of a pending request, with what the last step reported. */
function consentPage(requestId: string, notice?: SignInNotice): string {
  const query = new URLSearchParams({ request: requestId, ...(notice ? { notice } : {}) });
  return `${oauthIssuer()}/oauth/consent?${query}`;
}

function withSessionCookie(token: string): Record<string, string> {
  return { 'set-cookie': sessionCookie(oauthIssuer(), token, oauthLifetimes.session) };
}

/**
 * The OAuth 2.0 authorization server (DESIGN §10, docs/oauth.md): authorize (#1), the sign-in
 * and consent pages, token (#2), revocation (RFC 7009), registration (RFC 7591) and the metadata
 * (#3).
 */
export const handler = createGroupHandler(oauthOperations, {
  authorize: async ({ query }) => {
    const ctx = oauthContext();
    const outcome = await startAuthorization(ctx, query);
    switch (outcome.kind) {
      case 'error-page':
        return new RawResponse(
          400,
          pageHeaders,
          errorPage('This request cannot be completed', outcome.message),
        );
      case 'redirect':
        return redirectTo(outcome.location, 302);
      case 'consent':
        return redirectTo(consentPage(outcome.requestId), 302);
    }
  },

  showSignInPage: async ({ query, headers }) => {
    const issuer = oauthIssuer();
    const page = await signInPage(oauthContext(), query.request, sessionTokenOf(headers, issuer));
    const notice = isSignInNotice(query.notice) ? query.notice : null;
    return new RawResponse(
      200,
      { ...pageHeaders, ...(page.browser.isNew ? withSessionCookie(page.browser.token) : {}) },
      signInPageHtml(issuer, page, notice),
    );
  },

  requestSignInCode: async ({ body, headers, sourceIp }) => {
    const notice = await requestSignInCode(oauthContext(), {
      requestId: body.request,
      sessionToken: sessionTokenOf(headers, oauthIssuer()),
      csrfToken: body.csrf_token,
      email: body.email,
      sourceIp,
    });
    return redirectTo(consentPage(body.request, notice), 303);
  },

  verifySignInCode: async ({ body, headers }) => {
    const outcome = await verifySignInCode(oauthContext(), {
      requestId: body.request,
      sessionToken: sessionTokenOf(headers, oauthIssuer()),
      csrfToken: body.csrf_token,
      code: body.code,
    });
    return 'signedIn' in outcome
      ? redirectTo(consentPage(body.request), 303, withSessionCookie(outcome.signedIn.token))
      : redirectTo(consentPage(body.request, outcome.notice), 303);
  },

  restartSignIn: async ({ body, headers }) => {
    await restartSignIn(oauthContext(), {
      requestId: body.request,
      sessionToken: sessionTokenOf(headers, oauthIssuer()),
      csrfToken: body.csrf_token,
    });
    return redirectTo(consentPage(body.request), 303);
  },

  decideAuthorization: async ({ body, headers }) => {
    const outcome = await decideAuthorization(oauthContext(), {
      requestId: body.request,
      sessionToken: sessionTokenOf(headers, oauthIssuer()),
      csrfToken: body.csrf_token,
      decision: body.decision,
      orgId: body.org_id,
    });
    return 'location' in outcome
      ? redirectTo(outcome.location, 303)
      : redirectTo(consentPage(body.request, outcome.notice), 303);
  },

  issueToken: async ({ body, headers }) => {
    const ctx = oauthContext();
    const client = await authenticateClient(ctx, {
      clientId: body.client_id,
      clientSecret: body.client_secret,
      authorization: headers.authorization,
    });
    const tokens =
      body.grant_type === 'authorization_code'
        ? await exchangeCode(ctx, client, {
            code: body.code,
            redirectUri: body.redirect_uri,
            codeVerifier: body.code_verifier,
            resource: body.resource,
          })
        : await refreshTokens(ctx, client, {
            refreshToken: body.refresh_token,
            scope: body.scope,
            resource: body.resource,
          });
    return new RawResponse(
      200,
      { 'content-type': 'application/json', ...noStoreHeaders },
      JSON.stringify(tokens),
    );
  },

  revokeToken: async ({ body, headers }) => {
    const ctx = oauthContext();
    const client = await authenticateClient(ctx, {
      clientId: body.client_id,
      clientSecret: body.client_secret,
      authorization: headers.authorization,
    });
    await revokeToken(ctx, client, body.token, body.token_type_hint);
    return new RawResponse(200, noStoreHeaders);
  },

  registerClient: async ({ body }) => {
    const client = await registerClient(oauthContext(), body);
    return new RawResponse(
      201,
      { 'content-type': 'application/json', ...noStoreHeaders },
      JSON.stringify({
        client_id: client.clientId,
        client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
        client_name: client.name,
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    );
  },

  // RFC 8414 metadata from the issuer and the routes above, until the metadata use case of the
  // signing-keys work (with the JWKS and protected-resource documents) takes its place.
  getAuthorizationServerMetadata: async () =>
    withHeaders(authorizationServerMetadata(oauthIssuer()), { 'cache-control': 'max-age=300' }),
});
