import { verifyAzureOnboarding } from '../../shared/app/onboarding';
import { checklistItemView } from '../../shared/contract/onboarding';
import { onboardingAzureVerifyOperations } from '../../shared/contract/operations/onboarding-azure-verify';
import { createGroupHandler } from '../../shared/http/group-handler';
import { jsonBodies } from '../../shared/http/request-bodies';
import { functionContext } from '../../shared/runtime/current';
import { azureVerifier } from '../../shared/runtime/onboarding-azure-verify';
import { onboardingRepository, orgRepository } from '../../shared/store/store';

/** The repositories this function's use case reads and writes; it bundles no other. */
const appContext = functionContext({ onboarding: onboardingRepository, orgs: orgRepository });

/**
 * #19: verifies a customer's Azure tenant and subscription (DESIGN §11): a token of the service's
 * application from the Microsoft identity platform, then ARM's REST API. The only function that
 * reads the application's client secret.
 */
export const handler = createGroupHandler(
  onboardingAzureVerifyOperations,
  {
    verifyAzureOnboarding: async ({ principal, pathParams }) => {
      const ctx = { ...appContext(), verifier: azureVerifier() };
      const items = await verifyAzureOnboarding(ctx, principal, pathParams.org_id);
      return items.map(checklistItemView);
    },
  },
  { bodies: jsonBodies },
);
