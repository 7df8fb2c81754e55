import { awsOnboardingAzureConsentContext } from '../../shared/runtime/onboarding-azure-consent';
import { createOnboardingAzureConsentHandler } from './onboarding-azure-consent-handler';

export const handler = createOnboardingAzureConsentHandler(awsOnboardingAzureConsentContext);
