import {
  createOperatorClient,
  listClients,
  revokeClient,
  revokeUserTokens,
} from '../../shared/app/oauth/clients';
import type { OAuthClient } from '../../shared/domain/oauth/records';
import { type AdminCommand, defineCommand, optional, required, UsageError } from './admin-command';

/** OAuth clients and tokens (docs/oauth.md). */

function oauthClientJson(client: OAuthClient) {
  return {
    client_id: client.clientId,
    name: client.name,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.authMethod,
    registration: client.registration,
    created_at: client.createdAt,
    revoked_at: client.revokedAt,
  };
}

const confidentialMethods = ['client_secret_basic', 'client_secret_post'] as const;

export const oauthClientCommands: readonly AdminCommand[] = [
  defineCommand({
    name: 'create-oauth-client',
    summary:
      "an OAuth client: confidential (a secret, printed once) or --public (PKCE only); its tokens share the OAuth clients' throttling, per client and org",
    options: [
      { name: 'name', value: '<name>', required: true },
      { name: 'redirect-uri', value: '<uri>[,<uri>...]', required: true },
      { name: 'public', help: 'a public client: no secret, PKCE only' },
      {
        name: 'auth-method',
        value: '<method>',
        choices: confidentialMethods,
        help: `a confidential client's: ${confidentialMethods.join(' (default) or ')}`,
      },
    ],
    needs: ['store'],
    async run({ store }, { options }) {
      const method =
        options.public === true ? 'none' : (optional(options, 'auth-method') ?? 'client_secret_basic');
      if (method !== 'none' && method !== 'client_secret_basic' && method !== 'client_secret_post') {
        throw new UsageError(`--auth-method must be one of ${confidentialMethods.join(', ')}; got ${method}`);
      }
      const { client, secret } = await createOperatorClient(store.ctx, {
        name: required(options, 'name'),
        redirectUris: required(options, 'redirect-uri')
          .split(',')
          .map((uri) => uri.trim())
          .filter((uri) => uri !== ''),
        authMethod: method,
      });
      // No API Gateway key: every client's tokens share the OAuth clients' key, and the service
      // throttles them per client and org (docs/http.md, "Throttling").
      return { ...oauthClientJson(client), ...(secret === null ? {} : { client_secret: secret }) };
    },
  }),
  defineCommand({
    name: 'list-oauth-clients',
    summary: "every OAuth client (operators' and registered)",
    options: [],
    needs: ['store'],
    async run({ store }) {
      return { clients: (await listClients(store.ctx)).map(oauthClientJson) };
    },
  }),
  defineCommand({
    name: 'revoke-oauth-client',
    summary: 'refuse the client from now on and revoke every token it holds',
    args: [{ name: '<client_id>' }],
    options: [],
    needs: ['store', 'usagePlanKeys'],
    async run({ store, usagePlanKeys }, { args }) {
      const clientId = args[0] ?? '';
      const { client, families } = await revokeClient(store.ctx, clientId);
      // A key an earlier version gave the client, if any.
      await usagePlanKeys?.removeOAuthClient(clientId);
      return { ...oauthClientJson(client), revoked_token_families: families };
    },
  }),
  defineCommand({
    name: 'revoke-tokens',
    summary: 'revoke every OAuth token of the user',
    options: [{ name: 'user', value: '<email>', required: true }],
    needs: ['store'],
    async run({ store }, { options }) {
      const user = required(options, 'user');
      const families = await revokeUserTokens(store.ctx, user);
      return {
        user,
        revoked_token_families: families.map((family) => ({
          family_id: family.familyId,
          client_id: family.clientId,
          org_id: family.orgId,
          created_at: family.createdAt,
        })),
      };
    },
  }),
];
