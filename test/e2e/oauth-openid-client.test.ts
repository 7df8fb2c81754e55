import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOAuthClient, demoUserEmail } from '../../local/demo-seed';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { PageBrowser, walkConsent } from '../support/oauth-person';

/**
 * openid-client v6, unmodified, in OAuth 2.0 mode (RFC 8414 discovery, no ID token) against the
 * local server in this process: discovery from the issuer, authorize with PKCE, the code grant
 * with strict `iss` and `state` checks, a refresh, and an API call with the access token. The
 * person's part (sign-in with the code from the outbox, Allow) is played over plain HTTP.
 */

let api: LocalApi;
let dir: string;
let config: client.Configuration;
/** A loopback redirect on a port of the client's choosing (the demo client registered none). */
const redirectUri = 'http://127.0.0.1:53682/callback';
const browser = new PageBrowser();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-openid-client-'));
  api = await startLocalApi(
    { ...readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }) },
    { seedUsage: true },
  );
  config = await client.discovery(new URL(api.baseUrl), demoOAuthClient.clientId, undefined, client.None(), {
    algorithm: 'oauth2',
    // Plain http is allowed for the loopback server only: openid-client refuses it otherwise.
    execute: [client.allowInsecureRequests],
  });
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Started {
  readonly verifier: string;
  readonly state: string;
  readonly callback: URL;
}

async function authorizeAndAllow(): Promise<Started> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'plans:read',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const callback = await walkConsent(url, { baseUrl: api.baseUrl, dir, email: demoUserEmail, browser });
  return { verifier, state, callback };
}

function withParameter(url: URL, name: string, value: string | null): URL {
  const changed = new URL(url);
  if (value === null) changed.searchParams.delete(name);
  else changed.searchParams.set(name, value);
  return changed;
}

/** The reason openid-client gives for refusing a response (its own error wraps oauth4webapi's). */
async function refusalOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof client.ClientError) return String((error.cause as Error | undefined)?.message);
    throw error;
  }
  throw new Error('expected openid-client to refuse the response');
}

describe('openid-client v6 (OAuth 2.0 mode) against the local server', () => {
  it('discovers the server from its issuer: the metadata names the issuer byte for byte', () => {
    // Assess
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(api.baseUrl);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
  });

  it('runs authorize + PKCE + token + refresh and reads the demo org’s recommended plan with the access token', async () => {
    // Prepare
    const { verifier, state, callback } = await authorizeAndAllow();

    // Act
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    const plan = await client.fetchProtectedResource(
      config,
      refreshed.access_token,
      new URL(
        `${api.baseUrl}/v1/org/${api.credentials.org.org_id}/commitment-plans/recommended?provider=aws`,
      ),
      'GET',
    );

    // Assess
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900, scope: 'plans:read' });
    expect(refreshed.refresh_token).toBeDefined();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(plan.status).toBe(200);
    expect(await plan.json()).toMatchObject({ org_id: api.credentials.org.org_id, id: expect.any(String) });
  });

  it('refuses a callback with another state, another issuer or no issuer, and then exchanges the genuine one', async () => {
    // Prepare
    const { verifier, state, callback } = await authorizeAndAllow();
    const checks = { pkceCodeVerifier: verifier, expectedState: state };

    // Act
    const otherState = await refusalOf(
      client.authorizationCodeGrant(config, callback, { ...checks, expectedState: client.randomState() }),
    );
    const otherIssuer = await refusalOf(
      client.authorizationCodeGrant(config, withParameter(callback, 'iss', 'http://127.0.0.1:1'), checks),
    );
    const noIssuer = await refusalOf(
      client.authorizationCodeGrant(config, withParameter(callback, 'iss', null), checks),
    );

    // Assess
    expect(otherState).toMatch(/unexpected "state"/);
    expect(otherIssuer).toMatch(/unexpected "iss"/);
    expect(noIssuer).toMatch(/"iss" \(issuer\) missing/);
    // The refusals happened in the client, before the token endpoint: the code is still unspent.
    expect(await client.authorizationCodeGrant(config, callback, checks)).toMatchObject({
      token_type: 'bearer',
    });
  });
});
