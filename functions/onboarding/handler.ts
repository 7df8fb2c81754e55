import { awsOnboardingContext } from '../../shared/runtime/onboarding';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createOnboardingHandler } from './onboarding-handler';

export const handler = createOnboardingHandler(awsOnboardingContext, awsRequestThrottle);
