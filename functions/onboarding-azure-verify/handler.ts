import { awsOnboardingAzureVerifyContext } from '../../shared/runtime/onboarding-azure-verify';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createOnboardingAzureVerifyHandler } from './onboarding-azure-verify-handler';

export const handler = createOnboardingAzureVerifyHandler(
  awsOnboardingAzureVerifyContext,
  awsRequestThrottle,
);
