import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoOAuthClient, demoUserEmail } from '../../local/demo-seed';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { admin } from '../support/admin-cli';
import { PageBrowser as Browser, hiddenField, latestCodeFor } from '../support/oauth-person';

/**
 * The authorization server over HTTP, against the local server (in this process, with its local
 * signer), driven by an unmodified
 * real client, oauth4webapi, which validates `iss` and `state` strictly. The browser's part
 * (consent page, e-mail, code from the outbox, Allow) is played with plain HTTP requests.
 */

let api: LocalApi;
let dir: string;
let as: oauth.AuthorizationServer;
const client: oauth.Client = { client_id: demoOAuthClient.clientId };
const clientAuth = oauth.None();
const insecure = { [oauth.allowInsecureRequests]: true };
/** A loopback redirect on a port of the client's choosing (registered without one). */
const redirectUri = 'http://127.0.0.1:53682/callback';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-oauth-'));
  api = await startLocalApi(
    { ...readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }) },
    { seedUsage: false },
  );
  as = {
    issuer: api.baseUrl,
    authorization_endpoint: `${api.baseUrl}/oauth/authorize`,
    token_endpoint: `${api.baseUrl}/oauth/token`,
    revocation_endpoint: `${api.baseUrl}/oauth/revoke`,
    authorization_response_iss_parameter_supported: true,
  };
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Authorization {
  readonly url: URL;
  readonly verifier: string;
  readonly state: string;
}

async function authorizationRequest(change: Record<string, string | null> = {}): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint as string);
  const params: Record<string, string | null> = {
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'plans:read',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...change,
  };
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return { url, verifier, state };
}

const signedInBrowser = new Browser();

/**
 * A person's path through the pages: sign in with the e-mail and the code from the outbox (once:
 * the browser's session lasts an hour, as it would for a person authorizing several clients),
 * then Allow or Deny.
 */
async function consent(
  authorization: Authorization,
  decision: 'allow' | 'deny' = 'allow',
  browser: Browser = signedInBrowser,
): Promise<URL> {
  const started = await browser.get(authorization.url.href);
  expect(started.status).toBe(302);
  const consentUrl = started.headers.get('location') as string;
  expect(consentUrl).toMatch(new RegExp(`^${api.baseUrl}/oauth/consent\\?request=[0-9a-f-]+$`));

  let page = await browser.get(consentUrl);
  let html = await page.text();
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  if (html.includes('name="email"')) {
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    const form = { request: hiddenField(html, 'request'), csrf_token: hiddenField(html, 'csrf_token') };
    const asked = new Date();
    const sent = await browser.post(`${api.baseUrl}/oauth/sign-in/email`, { ...form, email: demoUserEmail });
    expect(sent.status).toBe(303);
    const entered = await browser.post(`${api.baseUrl}/oauth/sign-in/code`, {
      ...form,
      code: await latestCodeFor(dir, demoUserEmail, asked),
    });
    expect(entered.status).toBe(303);
    page = await browser.get(entered.headers.get('location') as string);
    html = await page.text();
  }
  expect(html).toContain('Allow access?');
  expect(html).toContain('Read your commitment plans');
  expect(html).toContain(`Signed in as <strong>${demoUserEmail}</strong>`);
  const decided = await browser.post(`${api.baseUrl}/oauth/consent`, {
    request: hiddenField(html, 'request'),
    csrf_token: hiddenField(html, 'csrf_token'),
    org_id: hiddenField(html, 'org_id'),
    decision,
  });
  expect(decided.status).toBe(303);
  return new URL(decided.headers.get('location') as string);
}

async function exchange(authorization: Authorization, callback: URL, verifier = authorization.verifier) {
  const params = oauth.validateAuthResponse(as, client, callback, authorization.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    clientAuth,
    params,
    redirectUri,
    verifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

async function refresh(refreshToken: string) {
  const response = await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure);
  return oauth.processRefreshTokenResponse(as, client, response);
}

async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
      return error.error;
    }
    throw error;
  }
  throw new Error('expected an OAuth error');
}

async function familyOf(accessToken: string) {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString('utf8'));
  return api.runtime.ctx.repos.oauthGrants.getFamily(payload.fam as string);
}

describe('the authorization code flow with PKCE, by oauth4webapi', () => {
  it('signs in by e-mail code, allows, exchanges the code and refreshes with rotation', async () => {
    // Prepare
    const authorization = await authorizationRequest();
    const callback = await consent(authorization);

    // Act
    const tokens = await exchange(authorization, callback);
    const refreshed = await refresh(tokens.refresh_token as string);

    // Assess
    expect(callback.searchParams.get('iss')).toBe(api.baseUrl);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900, scope: 'plans:read' });
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await familyOf(refreshed.access_token))?.revoked).toBe(false);
  });

  it('answers Deny with access_denied, the state and the issuer', async () => {
    const authorization = await authorizationRequest();
    const callback = await consent(authorization, 'deny');
    expect(
      await oauthErrorOf(
        Promise.resolve().then(() => oauth.validateAuthResponse(as, client, callback, authorization.state)),
      ),
    ).toBe('access_denied');
  });

  it('sends the token response with Cache-Control: no-store', async () => {
    const authorization = await authorizationRequest();
    const callback = await consent(authorization);
    const params = oauth.validateAuthResponse(as, client, callback, authorization.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      redirectUri,
      authorization.verifier,
      insecure,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('refusals', () => {
  it('redirects a request without PKCE, or with plain, back with an error, the state and the issuer', async () => {
    const changes: Record<string, string | null>[] = [
      { code_challenge: null, code_challenge_method: null },
      { code_challenge_method: 'plain' },
    ];
    for (const change of changes) {
      // Prepare
      const authorization = await authorizationRequest(change);

      // Act
      const response = await fetch(authorization.url, { redirect: 'manual' });

      // Assess
      expect(response.status).toBe(302);
      const callback = new URL(response.headers.get('location') as string);
      expect(
        await oauthErrorOf(
          Promise.resolve().then(() => oauth.validateAuthResponse(as, client, callback, authorization.state)),
        ),
      ).toBe('invalid_request');
    }
  });

  it('never redirects to an unregistered redirect URI or for an unknown client: an error page', async () => {
    const changes: Record<string, string>[] = [
      { redirect_uri: 'https://attacker.example/callback' },
      { redirect_uri: 'http://127.0.0.1:53682/other' },
      { client_id: 'unknown-client' },
    ];
    for (const change of changes) {
      const response = await fetch((await authorizationRequest(change)).url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('refuses a wrong verifier and a redirect URI other than the authorization request’s', async () => {
    const first = await authorizationRequest();
    expect(
      await oauthErrorOf(exchange(first, await consent(first), oauth.generateRandomCodeVerifier())),
    ).toBe('invalid_grant');
    const second = await authorizationRequest();
    const callback = await consent(second);
    const params = oauth.validateAuthResponse(as, client, callback, second.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      'http://127.0.0.1:1/callback',
      second.verifier,
      insecure,
    );
    expect(await oauthErrorOf(oauth.processAuthorizationCodeResponse(as, client, response))).toBe(
      'invalid_grant',
    );
  });

  it('refuses a replayed code and revokes the family of the tokens it issued', async () => {
    // Prepare
    const authorization = await authorizationRequest();
    const callback = await consent(authorization);
    const tokens = await exchange(authorization, callback);

    // Act
    const replay = await oauthErrorOf(exchange(authorization, callback));

    // Assess
    expect(replay).toBe('invalid_grant');
    expect((await familyOf(tokens.access_token))?.revoked).toBe(true);
    expect(await oauthErrorOf(refresh(tokens.refresh_token as string))).toBe('invalid_grant');
  });

  it('refuses a reused refresh token and revokes its family', async () => {
    // Prepare
    const authorization = await authorizationRequest();
    const tokens = await exchange(authorization, await consent(authorization));
    const rotated = await refresh(tokens.refresh_token as string);

    // Act
    const reuse = await oauthErrorOf(refresh(tokens.refresh_token as string));

    // Assess
    expect(reuse).toBe('invalid_grant');
    expect((await familyOf(rotated.access_token))?.revoked).toBe(true);
    expect(await oauthErrorOf(refresh(rotated.refresh_token as string))).toBe('invalid_grant');
  });

  it('refuses a code exchanged after 60 seconds', async () => {
    // Prepare
    const authorization = await authorizationRequest();
    const callback = await consent(authorization);
    // The server runs in this process: its clock moves with the test's.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });

    // Act
    let expired: string;
    try {
      expired = await oauthErrorOf(exchange(authorization, callback));
    } finally {
      vi.useRealTimers();
    }

    // Assess
    expect(expired).toBe('invalid_grant');
  });

  it('refuses a form posted without the session cookie its CSRF token belongs to', async () => {
    // Prepare
    const authorization = await authorizationRequest();
    const consentUrl = (await signedInBrowser.get(authorization.url.href)).headers.get('location') as string;
    const html = await (await signedInBrowser.get(consentUrl)).text();

    // Act
    const forged = await new Browser().post(`${api.baseUrl}/oauth/consent`, {
      request: hiddenField(html, 'request'),
      csrf_token: hiddenField(html, 'csrf_token'),
      org_id: hiddenField(html, 'org_id'),
      decision: 'allow',
    });

    // Assess
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('answers token errors with the service error body beside RFC 6749’s fields', async () => {
    const response = await fetch(as.token_endpoint as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: client.client_id }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({
      code: 400,
      status: 'Bad Request',
      error: 'unsupported_grant_type',
      error_description: expect.any(String),
    });
  });
});

describe('operators (admin CLI)', () => {
  it('create a confidential client whose secret, shown once, authenticates it with client_secret_basic, and revoke it', async () => {
    // Prepare
    const created = await admin<{ client_id: string; client_secret: string }>(dir, [
      'create-oauth-client',
      '--name',
      'Ops dashboard',
      '--redirect-uri',
      'http://127.0.0.1/callback',
    ]);
    const confidential: oauth.Client = { client_id: created.client_id };
    const authorization = await authorizationRequest({ client_id: created.client_id });
    const callback = await consent(authorization);
    const params = oauth.validateAuthResponse(as, confidential, callback, authorization.state);

    // Act
    const refused = await oauth.authorizationCodeGrantRequest(
      as,
      confidential,
      oauth.None(),
      params,
      redirectUri,
      authorization.verifier,
      insecure,
    );
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      confidential,
      oauth.ClientSecretBasic(created.client_secret),
      params,
      redirectUri,
      authorization.verifier,
      insecure,
    );

    // Assess
    expect(refused.status).toBe(401);
    expect(await oauth.processAuthorizationCodeResponse(as, confidential, response)).toMatchObject({
      token_type: 'bearer',
      scope: 'plans:read',
    });
    const listed = await admin<{ clients: { client_id: string; token_endpoint_auth_method: string }[] }>(
      dir,
      ['list-oauth-clients'],
    );
    expect(listed.clients).toContainEqual(
      expect.objectContaining({
        client_id: created.client_id,
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    );
    expect(JSON.stringify(listed)).not.toContain(created.client_secret);
    await admin(dir, ['revoke-oauth-client', created.client_id]);
    const afterRevocation = await fetch((await authorizationRequest({ client_id: created.client_id })).url, {
      redirect: 'manual',
    });
    expect(afterRevocation.status).toBe(400);
  });

  it('revoke every token of a user', async () => {
    // Prepare
    const first = await authorizationRequest();
    const tokens = await exchange(first, await consent(first));

    // Act
    const revoked = await admin<{ revoked_token_families: unknown[] }>(dir, [
      'revoke-tokens',
      '--user',
      demoUserEmail,
    ]);

    // Assess
    expect(revoked.revoked_token_families.length).toBeGreaterThan(0);
    expect((await familyOf(tokens.access_token))?.revoked).toBe(true);
    expect(await oauthErrorOf(refresh(tokens.refresh_token as string))).toBe('invalid_grant');
  });
});
