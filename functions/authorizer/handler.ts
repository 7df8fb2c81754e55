import { awsAuthorizerContext } from '../../shared/runtime/authorizer';
import { createAuthorizerHandler } from './authorizer-handler';

export const handler = createAuthorizerHandler(awsAuthorizerContext);
