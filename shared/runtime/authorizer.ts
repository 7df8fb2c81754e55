import {
  apiKeyRepository,
  membershipRepository,
  orgRepository,
  tokenFamilyRevocations,
} from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { verifierOfPublishedKeys } from './oauth-keys';

const repositories = awsFunctionContext({
  orgs: orgRepository,
  memberships: membershipRepository,
  apiKeys: apiKeyRepository,
  tokenFamilyRevocations,
});

/** Built with the first Bearer token: a request with an API key reads no issuer. */
const publishedKeysVerifier = onFirstUse(() => verifierOfPublishedKeys(process.env));

/**
 * The authorizer on AWS: the repositories it reads and writes on the service's table, built on
 * the first invocation, and the verifier of access tokens on the issuer's published keys.
 */
export const awsAuthorizerContext = onFirstUse(() => ({
  ...repositories(),
  accessTokens: publishedKeysVerifier,
}));
