import { awsOnboardingAzureVerifyContext } from '../../shared/runtime/onboarding-azure-verify';
import { createOnboardingAzureVerifyHandler } from './onboarding-azure-verify-handler';

export const handler = createOnboardingAzureVerifyHandler(awsOnboardingAzureVerifyContext);
