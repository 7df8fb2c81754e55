import { type AzureVerificationContext, verifyAzureOnboarding } from '../../shared/app/onboarding';
import type { RequestThrottle } from '../../shared/app/ports/request-throttle';
import { checklistItemView } from '../../shared/contract/onboarding';
import { onboardingAzureVerifyOperations } from '../../shared/contract/operations/onboarding-azure-verify';
import { createGroupHandler } from '../../shared/http/group-handler';
import { jsonBodies } from '../../shared/http/request-bodies';

/**
 * #19: verifies a customer's Azure tenant and subscription (docs/onboarding.md): a token of the service's
 * application from the Microsoft identity platform, then ARM's REST API. The only function that
 * reads the application's client secret.
 */
export function createOnboardingAzureVerifyHandler(
  verificationContext: () => AzureVerificationContext,
  requestThrottle: () => RequestThrottle,
) {
  return createGroupHandler(
    onboardingAzureVerifyOperations,
    {
      verifyAzureOnboarding: async ({ principal, pathParams }) => {
        const items = await verifyAzureOnboarding(verificationContext(), principal, pathParams.org_id);
        return items.map(checklistItemView);
      },
    },
    { bodies: jsonBodies, requestThrottle },
  );
}
