import { awsOnboardingAwsVerifyContext } from '../../shared/runtime/onboarding-aws-verify';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createOnboardingAwsVerifyHandler } from './onboarding-aws-verify-handler';

export const handler = createOnboardingAwsVerifyHandler(awsOnboardingAwsVerifyContext, awsRequestThrottle);
