import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOAuthClient, demoUserEmail } from '../../local/demo-seed';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { walkConsent } from '../support/oauth-person';

/**
 * A refresh refused for what it asks (`invalid_scope`, `invalid_target`) does not spend the refresh
 * token (docs/oauth.md, Tokens): the client's corrected retry with the same token succeeds and its
 * family stays live. Driven by an unmodified oauth4webapi against the local server over HTTP.
 */

let api: LocalApi;
let dir: string;
let as: oauth.AuthorizationServer;
const client: oauth.Client = { client_id: demoOAuthClient.clientId };
const insecure = { [oauth.allowInsecureRequests]: true };
const redirectUri = 'http://127.0.0.1:53682/callback';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-refresh-refusals-'));
  api = await startLocalApi(readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }), {
    seedUsage: false,
  });
  as = {
    issuer: api.baseUrl,
    authorization_endpoint: `${api.baseUrl}/oauth/authorize`,
    token_endpoint: `${api.baseUrl}/oauth/token`,
    authorization_response_iss_parameter_supported: true,
  };
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Tokens of a fresh authorization of the demo user, for `plans:read plans:apply`. */
async function freshTokens(): Promise<oauth.TokenEndpointResponse> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint as string);
  url.search = String(
    new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'plans:read plans:apply',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }),
  );
  const callback = await walkConsent(url, { baseUrl: api.baseUrl, dir, email: demoUserEmail });
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    redirectUri,
    verifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

async function refresh(refreshToken: string, parameters: Record<string, string> = {}) {
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, {
    ...insecure,
    additionalParameters: parameters,
  });
  return oauth.processRefreshTokenResponse(as, client, response);
}

async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) return error.error;
    throw error;
  }
  throw new Error('expected an OAuth error');
}

function familyOf(accessToken: string) {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString('utf8'));
  return api.runtime.ctx.repos.oauthGrants.getFamily(payload.fam as string);
}

describe('a refresh refused for what it asks', () => {
  it('leaves the token unspent after invalid_scope: the corrected retry succeeds and the family lives', async () => {
    // Prepare
    const tokens = await freshTokens();
    const refreshToken = tokens.refresh_token as string;

    // Act
    const refused = await oauthErrorOf(refresh(refreshToken, { scope: 'plans:read org:write' }));
    const retried = await refresh(refreshToken, { scope: 'plans:read' });

    // Assess
    expect(refused).toBe('invalid_scope');
    expect(retried.scope).toBe('plans:read');
    expect((await familyOf(retried.access_token))?.revoked).toBe(false);
  });

  it('leaves the token unspent after invalid_target: the corrected retry succeeds and the family lives', async () => {
    // Prepare
    const tokens = await freshTokens();
    const refreshToken = tokens.refresh_token as string;

    // Act
    const refused = await oauthErrorOf(refresh(refreshToken, { resource: 'https://elsewhere.example/' }));
    const retried = await refresh(refreshToken);

    // Assess
    expect(refused).toBe('invalid_target');
    expect(retried.refresh_token).not.toBe(refreshToken);
    expect((await familyOf(retried.access_token))?.revoked).toBe(false);
  });

  it('still treats a rotated token presented again as reuse, whatever it asks, and revokes the family', async () => {
    // Prepare
    const tokens = await freshTokens();
    const refreshToken = tokens.refresh_token as string;
    const rotated = await refresh(refreshToken);

    // Act
    const reused = await oauthErrorOf(refresh(refreshToken, { scope: 'org:write' }));

    // Assess
    expect(reused).toBe('invalid_grant');
    expect((await familyOf(rotated.access_token))?.revoked).toBe(true);
  });
});
