import { awsOnboardingAwsVerifyContext } from '../../shared/runtime/onboarding-aws-verify';
import { createOnboardingAwsVerifyHandler } from './onboarding-aws-verify-handler';

export const handler = createOnboardingAwsVerifyHandler(awsOnboardingAwsVerifyContext);
