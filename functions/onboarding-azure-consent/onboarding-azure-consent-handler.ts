import {
  type AzureConsentContext,
  type ConsentOutcome,
  completeAzureConsent,
} from '../../shared/app/azure-consent';
import { onboardingAzureConsentOperations } from '../../shared/contract/operations/onboarding-azure-consent';
import { createGroupHandler } from '../../shared/http/group-handler';
import { escapeHtml, htmlPage, pageHeaders } from '../../shared/http/html';
import { RawResponse } from '../../shared/http/operation';
import { pageErrorAnswer } from '../../shared/http/page-error-answer';
import { consentCallbackUrl, type OnboardingRuntime } from '../../shared/runtime/onboarding';

/** What the consent callback runs with: the consent's use case's context, and where the callback is. */
export type OnboardingAzureConsentContext = AzureConsentContext & Pick<OnboardingRuntime, 'publicApiUrl'>;

/**
 * The Azure admin consent's public callback (docs/onboarding.md, Azure consent): Microsoft's
 * redirect starts the sign-in of the tenant's administrator, whose answer proves the consent. The
 * only function that bundles that sign-in (oauth4webapi and jose) and reads the application's
 * client secret for it; #20, which issues the link, stays in the onboarding function.
 */
export function createOnboardingAzureConsentHandler(consentContext: () => OnboardingAzureConsentContext) {
  return createGroupHandler(
    onboardingAzureConsentOperations,
    {
      completeAzureConsent: async ({ query }) => {
        const ctx = consentContext();
        const outcome = await completeAzureConsent(ctx, {
          state: query.state,
          adminConsent: query.admin_consent,
          tenant: query.tenant,
          code: query.code,
          error: query.error,
          errorDescription: query.error_description,
          callbackUrl: consentCallbackUrl(ctx),
        });
        return consentPage(outcome);
      },
    },
    { errors: { page: pageErrorAnswer } },
  );
}

function consentPage(outcome: ConsentOutcome): RawResponse {
  if (outcome.outcome === 'sign_in') {
    // The tenant's sign-in: where the administrator proves who granted the consent.
    return new RawResponse(302, { ...pageHeaders, location: outcome.url }, '');
  }
  const [status, title, message] =
    outcome.outcome === 'granted'
      ? [
          200,
          'Access granted',
          `Thank you: the commitment planning service may now read tenant ${outcome.tenantId}. You can close this page.`,
        ]
      : outcome.outcome === 'refused'
        ? [
            200,
            'Access not granted',
            `The consent was not given (${outcome.reason}). Ask your partner for a new link to try again.`,
          ]
        : outcome.outcome === 'conflict'
          ? [409, 'Already connected elsewhere', outcome.reason]
          : [400, 'Link no longer valid', outcome.reason];
  return new RawResponse(
    status,
    pageHeaders,
    htmlPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`),
  );
}
