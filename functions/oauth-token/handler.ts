import { awsOAuthTokenContext } from '../../shared/runtime/oauth-token';
import { createOAuthTokenHandler } from './oauth-token-handler';

export const handler = createOAuthTokenHandler(awsOAuthTokenContext);
