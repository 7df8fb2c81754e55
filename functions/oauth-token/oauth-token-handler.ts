import { authenticateClient } from '../../shared/app/oauth/clients';
import type { OAuthContext } from '../../shared/app/oauth/oauth-context';
import { exchangeCode, refreshTokens, revokeToken } from '../../shared/app/oauth/tokens';
import type { ContextWith } from '../../shared/app/ports';
import { oauthTokenOperations } from '../../shared/contract/operations/oauth-token';
import { createGroupHandler } from '../../shared/http/group-handler';
import { oauthErrorAnswer } from '../../shared/http/oauth-error-answer';
import { noStoreHeaders, RawResponse } from '../../shared/http/operation';
import { formBodies } from '../../shared/http/request-bodies';

/** What the token function runs with: its repositories, the issuer and the signer. */
export type OAuthTokenContext = Pick<OAuthContext, 'clock' | 'ids' | 'issuer' | 'signer'> &
  ContextWith<'oauthGrants' | 'memberships'>;

/**
 * The authorization server's token endpoint (#2, docs/oauth.md, docs/oauth.md) and revocation
 * (RFC 7009): the only function that signs access tokens.
 */
export function createOAuthTokenHandler(tokenContext: () => OAuthTokenContext) {
  return createGroupHandler(
    oauthTokenOperations,
    {
      issueToken: async ({ body, headers }) => {
        const ctx = tokenContext();
        const client = await authenticateClient(ctx, {
          clientId: body.client_id,
          clientSecret: body.client_secret,
          authorization: headers.authorization,
        });
        const tokens =
          body.grant_type === 'authorization_code'
            ? await exchangeCode(ctx, client, {
                code: body.code,
                redirectUri: body.redirect_uri,
                codeVerifier: body.code_verifier,
                resource: body.resource,
              })
            : await refreshTokens(ctx, client, {
                refreshToken: body.refresh_token,
                scope: body.scope,
                resource: body.resource,
              });
        return new RawResponse(
          200,
          { 'content-type': 'application/json', ...noStoreHeaders },
          JSON.stringify(tokens),
        );
      },

      revokeToken: async ({ body, headers }) => {
        const ctx = tokenContext();
        const client = await authenticateClient(ctx, {
          clientId: body.client_id,
          clientSecret: body.client_secret,
          authorization: headers.authorization,
        });
        await revokeToken(ctx, client, body.token, body.token_type_hint);
        return new RawResponse(200, noStoreHeaders);
      },
    },
    { bodies: formBodies, errors: { oauth: oauthErrorAnswer } },
  );
}
