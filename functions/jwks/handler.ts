import { awsJwksContext } from '../../shared/runtime/jwks';
import { createJwksHandler } from './jwks-handler';

export const handler = createJwksHandler(awsJwksContext);
