import { matchesSecretHash, randomSecret, secretHash } from '../../auth/oauth-secrets';
import { displayName } from '../../domain/display-names';
import { TooManyRequestsError, ValidationError } from '../../domain/errors';
import { OAuthError } from '../../domain/oauth/errors';
import type { ClientAuthMethod, OAuthClient, TokenFamily } from '../../domain/oauth/records';
import { redirectUriProblem } from '../../domain/oauth/redirect-uris';
import { fixedWindow } from '../../domain/oauth/sign-in-limits';
import type { ContextWith } from '../ports';

/**
 * OAuth clients (docs/oauth.md): registered by operators (confidential with a secret shown once, or
 * public) or by anyone through dynamic registration (RFC 7591; public clients only, their names
 * shown as unverified). Revoking a client revokes every token family it holds.
 */

/** RFC 7591 §2 metadata, as the registration endpoint validated it. */
export interface ClientMetadata {
  readonly redirect_uris: readonly string[];
  readonly client_name?: string | undefined;
  readonly token_endpoint_auth_method?: string | undefined;
  readonly grant_types?: readonly string[] | undefined;
  readonly response_types?: readonly string[] | undefined;
}

const supportedGrantTypes: ReadonlySet<string> = new Set(['authorization_code', 'refresh_token']);

/** What a client named nothing is called on the consent page. */
const unnamedClient = 'Unnamed application';

/** Dynamic registrations one network address may make in a fixed hour (docs/oauth.md, "Limits"). */
export const registrationLimits = { windowSeconds: 3600, perSourceIp: 10 } as const;

/**
 * Registers a public client for anyone (RFC 7591), within `registrationLimits` per network
 * address: a registration over it is refused (429) before anything is stored.
 */
export async function registerClient(
  ctx: ContextWith<'oauthClients'>,
  metadata: ClientMetadata,
  sourceIp: string,
): Promise<OAuthClient> {
  const uriProblem = redirectUrisProblem(metadata.redirect_uris);
  if (uriProblem !== null) throw new OAuthError('invalid_redirect_uri', uriProblem);
  if ((metadata.token_endpoint_auth_method ?? 'none') !== 'none') {
    throw new OAuthError(
      'invalid_client_metadata',
      'Only public clients may register: token_endpoint_auth_method must be "none".',
    );
  }
  if (!(metadata.grant_types ?? ['authorization_code']).every((grant) => supportedGrantTypes.has(grant))) {
    throw new OAuthError(
      'invalid_client_metadata',
      'grant_types may hold authorization_code and refresh_token only.',
    );
  }
  if (!(metadata.response_types ?? ['code']).every((type) => type === 'code')) {
    throw new OAuthError('invalid_client_metadata', 'response_types may hold code only.');
  }
  const name =
    metadata.client_name === undefined ? { name: unnamedClient } : displayName(metadata.client_name);
  if ('problem' in name) {
    const refused = new OAuthError('invalid_client_metadata', `client_name ${name.problem}.`);
    Object.assign(refused.fields, { client_name: [name.problem] });
    throw refused;
  }
  const window = fixedWindow(ctx.clock.now(), registrationLimits.windowSeconds);
  const withinRate = await ctx.repos.oauthClients.countRateEvent(
    `register-ip:${secretHash(sourceIp)}:${window.index}`,
    registrationLimits.perSourceIp,
    window.endsAt,
  );
  if (!withinRate) {
    throw new TooManyRequestsError(
      `At most ${registrationLimits.perSourceIp} clients may be registered from one network address an hour; retry later.`,
      (Date.parse(window.endsAt) - ctx.clock.now().getTime()) / 1000,
    );
  }
  const client: OAuthClient = {
    clientId: newClientId(ctx),
    name: name.name,
    redirectUris: [...metadata.redirect_uris],
    authMethod: 'none',
    secretHash: null,
    registration: 'dynamic',
    createdAt: ctx.clock.now().toISOString(),
    revokedAt: null,
  };
  // No API Gateway key per client: an account's key quota would let a flood of registrations
  // block new partner keys. Its tokens' requests are throttled per client and org in the service
  // (docs/http.md, "Throttling").
  await ctx.repos.oauthClients.createClient(client);
  return client;
}

export interface OperatorClientRequest {
  readonly name: string;
  readonly redirectUris: readonly string[];
  /** `none` makes a public client; the others a confidential one, with a secret. */
  readonly authMethod: ClientAuthMethod;
  /** A chosen id (the local demo's client); a random one otherwise. */
  readonly clientId?: string;
}

/** An operator's client, and its secret (confidential clients only): shown once, stored hashed. */
export async function createOperatorClient(
  ctx: ContextWith<'oauthClients'>,
  request: OperatorClientRequest,
): Promise<{ readonly client: OAuthClient; readonly secret: string | null }> {
  const uriProblem = redirectUrisProblem(request.redirectUris);
  if (uriProblem !== null) throw new ValidationError(uriProblem, { redirect_uris: [uriProblem] });
  const name = displayName(request.name);
  if ('problem' in name)
    throw new ValidationError(`The client's name ${name.problem}`, { name: [name.problem] });
  const secret = request.authMethod === 'none' ? null : randomSecret();
  const client: OAuthClient = {
    clientId: request.clientId ?? newClientId(ctx),
    name: name.name,
    redirectUris: [...request.redirectUris],
    authMethod: request.authMethod,
    secretHash: secret === null ? null : secretHash(secret),
    registration: 'operator',
    createdAt: ctx.clock.now().toISOString(),
    revokedAt: null,
  };
  await ctx.repos.oauthClients.createClient(client);
  return { client, secret };
}

export function listClients(ctx: ContextWith<'oauthClients'>): Promise<OAuthClient[]> {
  return ctx.repos.oauthClients.listClients();
}

/** Revokes the client and every token family it holds; answers the client and how many families. */
export async function revokeClient(
  ctx: ContextWith<'oauthClients' | 'oauthGrants'>,
  clientId: string,
): Promise<{ readonly client: OAuthClient; readonly families: number }> {
  const at = ctx.clock.now().toISOString();
  const client = await ctx.repos.oauthClients.revokeClient(clientId, at);
  const familyIds = await ctx.repos.oauthGrants.familyIdsOfClient(clientId);
  for (const familyId of familyIds) await ctx.repos.oauthGrants.revokeFamily(familyId, at);
  return { client, families: familyIds.length };
}

/** Revokes every token family of the user: its access tokens are refused, its refresh tokens dead. */
export async function revokeUserTokens(
  ctx: ContextWith<'oauthGrants'>,
  email: string,
): Promise<TokenFamily[]> {
  const at = ctx.clock.now().toISOString();
  const families = (await ctx.repos.oauthGrants.familiesOfUser(email)).filter((family) => !family.revoked);
  for (const family of families) await ctx.repos.oauthGrants.revokeFamily(family.familyId, at);
  return families;
}

/** How a client presented itself to the token or revocation endpoint. */
export interface ClientCredentials {
  /** From the form's `client_id`. */
  readonly clientId?: string | undefined;
  /** From the form's `client_secret` (client_secret_post). */
  readonly clientSecret?: string | undefined;
  /** The `Authorization` header, if any (client_secret_basic). */
  readonly authorization?: string | undefined;
}

/**
 * Authenticates the client with the method it registered, and that method only (RFC 6749 §2.3):
 * `none` sends its client_id alone, `client_secret_basic` the Basic header, `client_secret_post`
 * the form's client_secret. Anything else is `invalid_client`, unknown and revoked clients too.
 */
export async function authenticateClient(
  ctx: ContextWith<'oauthGrants'>,
  credentials: ClientCredentials,
): Promise<OAuthClient> {
  const basic = parseBasic(credentials.authorization);
  if (basic !== null && credentials.clientSecret !== undefined) {
    throw new OAuthError('invalid_request', 'Use one client authentication method, not two.');
  }
  if (basic !== null && credentials.clientId !== undefined && credentials.clientId !== basic.clientId) {
    throw new OAuthError('invalid_request', 'client_id differs from the authenticated client.');
  }
  const clientId = basic?.clientId ?? credentials.clientId;
  if (clientId === undefined) throw new OAuthError('invalid_client', 'The client is not identified.');
  const client = await ctx.repos.oauthGrants.getClient(clientId);
  const refused = new OAuthError('invalid_client', 'Client authentication failed.');
  if (client === null || client.revokedAt !== null) throw refused;
  const presented: ClientAuthMethod =
    basic !== null
      ? 'client_secret_basic'
      : credentials.clientSecret !== undefined
        ? 'client_secret_post'
        : 'none';
  if (presented !== client.authMethod) throw refused;
  const secret = basic?.secret ?? credentials.clientSecret;
  if (secret !== undefined && (client.secretHash === null || !matchesSecretHash(secret, client.secretHash))) {
    throw refused;
  }
  return client;
}

/** RFC 6749 §2.3.1: `Basic base64(urlencode(id) ":" urlencode(secret))`; null without the header. */
function parseBasic(authorization: string | undefined): { clientId: string; secret: string } | null {
  if (authorization === undefined) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match?.[1])
    throw new OAuthError('invalid_client', 'The Authorization header is not Basic credentials.');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('invalid_client', 'The Basic credentials are malformed.');
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are malformed.');
  }
}

function redirectUrisProblem(uris: readonly string[]): string | null {
  if (uris.length === 0) return 'At least one redirect URI is needed.';
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) return `Redirect URI ${JSON.stringify(uri)} ${problem}.`;
  }
  return null;
}

function newClientId(ctx: ContextWith<'oauthClients'>): string {
  return ctx.ids.uuid();
}
