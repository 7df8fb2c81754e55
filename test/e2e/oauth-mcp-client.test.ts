import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  auth,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserEmail } from '../../local/demo-seed';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { walkConsent } from '../support/oauth-person';

/**
 * The MCP TypeScript SDK's client-side OAuth (`auth()` of `@modelcontextprotocol/sdk/client/auth.js`,
 * unmodified) against the local server in this process, as an MCP client such as Claude Code
 * connects: a 401 of the API names the protected-resource metadata (RFC 9728), which names the
 * authorization server; the SDK reads its metadata (RFC 8414), registers itself (RFC 7591), and
 * runs authorize + PKCE + token. The service has no MCP server endpoint: the SDK's transport is
 * not used, only its auth module, with the API's base URL as the "server URL" (the resource).
 * The test plays the browser the SDK hands the authorization URL to.
 */

let api: LocalApi;
let dir: string;
/** A loopback redirect, as a local MCP client listens on; any port (RFC 8252 §7.3). */
const redirectUrl = 'http://127.0.0.1:47615/oauth/callback';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-mcp-client-'));
  api = await startLocalApi(
    { ...readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }) },
    { seedUsage: true },
  );
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What an MCP client keeps between the SDK's calls: its registration, the verifier, the tokens. */
class InMemoryProvider implements OAuthClientProvider {
  registered: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  get redirectUrl(): string {
    return redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP SDK e2e client',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.registered;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.registered = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

describe('the MCP TypeScript SDK client', () => {
  it('discovers the server from a 401, registers, gets a token through the person’s consent and reads a plan', async () => {
    // Prepare
    const planUrl = `${api.baseUrl}/v1/org/${api.credentials.org.org_id}/commitment-plans/recommended?provider=aws`;
    const unauthenticated = await fetch(planUrl);
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(unauthenticated);
    const provider = new InMemoryProvider();
    const options = { serverUrl: api.baseUrl, resourceMetadataUrl, scope: 'plans:read' };

    // Act
    const started = await auth(provider, options);
    const callback = await walkConsent(provider.authorizationUrl as URL, {
      baseUrl: api.baseUrl,
      dir,
      email: demoUserEmail,
    });
    const finished = await auth(provider, {
      ...options,
      authorizationCode: callback.searchParams.get('code') as string,
    });
    const plan = await fetch(planUrl, {
      headers: { authorization: `Bearer ${provider.saved?.access_token}` },
    });

    // Assess
    expect(unauthenticated.status).toBe(401);
    expect(resourceMetadataUrl?.href).toBe(`${api.baseUrl}/.well-known/oauth-protected-resource`);
    expect(started).toBe('REDIRECT');
    expect(provider.registered?.client_id).toEqual(expect.any(String));
    expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(api.baseUrl);
    expect(callback.origin + callback.pathname).toBe(redirectUrl);
    expect(callback.searchParams.get('iss')).toBe(api.baseUrl);
    expect(finished).toBe('AUTHORIZED');
    expect(provider.saved).toMatchObject({
      token_type: expect.stringMatching(/^bearer$/i),
      scope: 'plans:read',
    });
    expect(plan.status).toBe(200);
    expect(await plan.json()).toMatchObject({ org_id: api.credentials.org.org_id });
  });

  it('discovers from the well-known metadata without a 401, and on a later auth() refreshes its token with rotation', async () => {
    // Prepare
    const provider = new InMemoryProvider();
    const options = { serverUrl: api.baseUrl, scope: 'plans:read' };
    await auth(provider, options);
    const callback = await walkConsent(provider.authorizationUrl as URL, {
      baseUrl: api.baseUrl,
      dir,
      email: demoUserEmail,
    });
    await auth(provider, { ...options, authorizationCode: callback.searchParams.get('code') as string });
    const first = provider.saved as OAuthTokens;

    // Act
    const refreshed = await auth(provider, options);

    // Assess
    expect(refreshed).toBe('AUTHORIZED');
    expect(provider.saved?.refresh_token).toEqual(expect.any(String));
    expect(provider.saved?.refresh_token).not.toBe(first.refresh_token);
    expect(provider.saved?.access_token).not.toBe(first.access_token);
  });
});
