import { onFirstUse } from './function-context';
import { awsOAuthKeys } from './oauth-keys';

/**
 * The jwks function on AWS: the issuer and the KMS signer whose public keys it publishes, built on
 * the first invocation. No table.
 */
export const awsJwksContext = onFirstUse(() => awsOAuthKeys(process.env));
