import { awsOnboardingContext } from '../../shared/runtime/onboarding';
import { createOnboardingHandler } from './onboarding-handler';

export const handler = createOnboardingHandler(awsOnboardingContext);
