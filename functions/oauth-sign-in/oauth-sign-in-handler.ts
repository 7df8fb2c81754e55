import { Logger } from '@aws-lambda-powertools/logger';
import { startAuthorization } from '../../shared/app/oauth/authorization';
import type { OAuthContext } from '../../shared/app/oauth/oauth-context';
import {
  decideAuthorization,
  requestSignInCode,
  restartSignIn,
  type SignInNotice,
  signInPage,
  verifySignInCode,
} from '../../shared/app/oauth/sign-in';
import type { ContextWith } from '../../shared/app/ports';
import { oauthSignInOperations } from '../../shared/contract/operations/oauth-sign-in';
import { oauthLifetimes } from '../../shared/domain/oauth/records';
import { createGroupHandler } from '../../shared/http/group-handler';
import { errorPage, pageHeaders } from '../../shared/http/html';
import { RawResponse, redirectTo } from '../../shared/http/operation';
import { pageErrorAnswer } from '../../shared/http/page-error-answer';
import { formBodies } from '../../shared/http/request-bodies';
import { isSignInNotice, signInPageHtml } from './pages';
import { sessionCookie, sessionTokenOf } from './session-cookie';
import { answerAfterFloor } from './steady-answer';

/**
 * What the sign-in function runs with: its repositories, the issuer, the mailer of sign-in codes
 * and the key their stored HMACs are made with.
 */
export type OAuthSignInContext = Pick<OAuthContext, 'clock' | 'ids' | 'issuer' | 'mailer' | 'signInCodeKey'> &
  ContextWith<'signIns' | 'memberships' | 'orgs'>;

/**
 * The authorization server's browser side (docs/oauth.md, docs/oauth.md): authorize (#1), and the
 * sign-in and consent pages up to the redirect back to the client. Tokens are issued by the
 * oauth-token function, clients registered by oauth-registration.
 */
export function createOAuthSignInHandler(signInContext: () => OAuthSignInContext) {
  // The service name comes from POWERTOOLS_SERVICE_NAME, as every function's (docs/architecture.md).
  const logger = new Logger();
  /** The issuer: the API's base URL. */
  const oauthIssuer = () => signInContext().issuer;

  /** The consent page of a pending request, with what the last step reported. */
  function consentPage(requestId: string, notice?: SignInNotice): string {
    const query = new URLSearchParams({ request: requestId, ...(notice ? { notice } : {}) });
    return `${oauthIssuer()}/oauth/consent?${query}`;
  }

  function withSessionCookie(token: string): Record<string, string> {
    return { 'set-cookie': sessionCookie(oauthIssuer(), token, oauthLifetimes.session) };
  }

  return createGroupHandler(
    oauthSignInOperations,
    {
      authorize: async ({ query }) => {
        const outcome = await startAuthorization(signInContext(), query);
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
        const page = await signInPage(signInContext(), query.request, sessionTokenOf(headers, issuer));
        const notice = isSignInNotice(query.notice) ? query.notice : null;
        return new RawResponse(
          200,
          { ...pageHeaders, ...(page.browser.isNew ? withSessionCookie(page.browser.token) : {}) },
          signInPageHtml(issuer, page, notice),
        );
      },

      requestSignInCode: async ({ body, headers, sourceIp }) => {
        const startedAt = performance.now();
        const { notice, mailing } = await requestSignInCode(signInContext(), {
          requestId: body.request,
          sessionToken: sessionTokenOf(headers, oauthIssuer()),
          csrfToken: body.csrf_token,
          email: body.email,
          sourceIp,
        });
        // The same answer, after the same time, for members (whose mail is being sent) and others.
        await answerAfterFloor(startedAt, mailing, logger);
        return redirectTo(consentPage(body.request, notice), 303);
      },

      verifySignInCode: async ({ body, headers, sourceIp }) => {
        const outcome = await verifySignInCode(signInContext(), {
          requestId: body.request,
          sessionToken: sessionTokenOf(headers, oauthIssuer()),
          csrfToken: body.csrf_token,
          code: body.code,
          sourceIp,
        });
        return 'signedIn' in outcome
          ? redirectTo(consentPage(body.request), 303, withSessionCookie(outcome.signedIn.token))
          : redirectTo(consentPage(body.request, outcome.notice), 303);
      },

      restartSignIn: async ({ body, headers }) => {
        await restartSignIn(signInContext(), {
          requestId: body.request,
          sessionToken: sessionTokenOf(headers, oauthIssuer()),
          csrfToken: body.csrf_token,
        });
        return redirectTo(consentPage(body.request), 303);
      },

      decideAuthorization: async ({ body, headers }) => {
        const outcome = await decideAuthorization(signInContext(), {
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
    },
    { bodies: formBodies, errors: { page: pageErrorAnswer }, logger },
  );
}
