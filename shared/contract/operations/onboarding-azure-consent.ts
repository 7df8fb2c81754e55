import { consentCallbackQuery } from '../onboarding';
import type { OperationList } from '../operation-contract';

/**
 * The Azure consent's public callback, in its own function: the only one that bundles the
 * OpenID Connect sign-in proving the consent (oauth4webapi and jose; docs/onboarding.md, Azure
 * consent).
 */
export const onboardingAzureConsentOperations = {
  completeAzureConsent: {
    method: 'GET',
    path: '/v2/onboarding/azure/callback',
    group: 'onboarding-azure-consent',
    summary:
      "Where the Microsoft identity platform sends the customer after admin consent (302 to the tenant's sign-in) and after the sign-in that proves it (an HTML page)",
    tag: 'Partners',
    public: true,
    query: consentCallbackQuery,
    html: true,
    conflicts: true,
    responses: { 200: null, 302: null },
  },
} satisfies OperationList;
