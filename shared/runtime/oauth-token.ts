import { membershipRepository, oauthGrantRepository } from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { awsOAuthKeys } from './oauth-keys';

const repositories = awsFunctionContext({
  oauthGrants: oauthGrantRepository,
  memberships: membershipRepository,
});

/**
 * The token function (token, revocation) on AWS: its repositories on the service's table, the
 * issuer and the KMS signer (oauth-keys.ts), built on the first invocation. It mails nothing and
 * registers no client, so it bundles neither the SES nor the API Gateway client.
 */
export const awsOAuthTokenContext = onFirstUse(() => {
  const { issuer, signer } = awsOAuthKeys(process.env);
  return { ...repositories(), issuer, signer };
});
