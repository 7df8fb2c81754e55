import { registerClient } from '../../shared/app/oauth/clients';
import type { ContextWith } from '../../shared/app/ports';
import { oauthRegistrationOperations } from '../../shared/contract/operations/oauth-registration';
import { createGroupHandler } from '../../shared/http/group-handler';
import { oauthErrorAnswer } from '../../shared/http/oauth-error-answer';
import { noStoreHeaders, RawResponse } from '../../shared/http/operation';
import { jsonBodies } from '../../shared/http/request-bodies';

/** What the registration function runs with: the OAuth repository. */
export type OAuthRegistrationContext = ContextWith<'oauthClients'>;

/**
 * Dynamic client registration (RFC 7591, docs/oauth.md): stores the client only. Its tokens share
 * the OAuth clients' usage-plan key with every other client's, and are throttled per client and
 * org by the service (docs/http.md, "Throttling"), so a registration touches no API Gateway key.
 */
export function createOAuthRegistrationHandler(appContext: () => OAuthRegistrationContext) {
  return createGroupHandler(
    oauthRegistrationOperations,
    {
      registerClient: async ({ body, sourceIp }) => {
        const client = await registerClient(appContext(), body, sourceIp);
        return new RawResponse(
          201,
          { 'content-type': 'application/json', ...noStoreHeaders },
          JSON.stringify({
            client_id: client.clientId,
            client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
            client_name: client.name,
            redirect_uris: client.redirectUris,
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          }),
        );
      },
    },
    { bodies: jsonBodies, errors: { oauth: oauthErrorAnswer } },
  );
}
