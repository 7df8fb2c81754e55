import { awsOAuthRegistrationContext } from '../../shared/runtime/oauth-registration';
import { createOAuthRegistrationHandler } from './oauth-registration-handler';

export const handler = createOAuthRegistrationHandler(awsOAuthRegistrationContext);
