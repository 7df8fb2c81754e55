import { checklist } from '../onboarding';
import type { OperationList } from '../operation-contract';
import { orgPath } from './path-params';

/** #19: the Azure verification, in its own function: the only one with the identity platform's client. */
export const onboardingAzureVerifyOperations = {
  verifyAzureOnboarding: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/azure/verify',
    group: 'onboarding-azure-verify',
    summary: 'Run the Azure onboarding and verify every feature',
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: orgPath,
    responses: { 200: checklist },
  },
} satisfies OperationList;
