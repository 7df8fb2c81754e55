import type { OAuthContext } from '../app/oauth/oauth-context';
import { oauthKeys } from './oauth-keys';

/**
 * What the token function (token, revocation) runs with beside its own context (current.ts): the
 * issuer and the signer (oauth-keys.ts: the KMS signer on Lambda, the local key locally). It
 * mails nothing and registers no client, so it bundles neither the SES nor the API Gateway client.
 */
export function withTokenSigning<Base extends object>(
  base: Base,
): Base & Pick<OAuthContext, 'issuer' | 'signer'> {
  const { issuer, signer } = oauthKeys();
  return { ...base, issuer, signer };
}
