import { awsOAuthSignInContext } from '../../shared/runtime/oauth-sign-in';
import { createOAuthSignInHandler } from './oauth-sign-in-handler';

export const handler = createOAuthSignInHandler(awsOAuthSignInContext);
