import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, expect } from 'vitest';
import { demoOAuthClient, demoUserEmail } from '../../local/demo-seed';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { PageBrowser as Browser, hiddenField, latestCodeFor, loopbackRedirectUri } from './oauth-person';

/**
 * The authorization server of a local server started in the test's process (with its local
 * signer), for a test file driving it with an unmodified real client, oauth4webapi, which
 * validates `iss` and `state` strictly. The browser's part (consent page, e-mail, code from the
 * outbox, Allow) is played with plain HTTP requests.
 */

export const client: oauth.Client = { client_id: demoOAuthClient.clientId };
export const clientAuth = oauth.None();
export const insecure = { [oauth.allowInsecureRequests]: true };
export const redirectUri = loopbackRedirectUri;

let api: LocalApi;
let dir: string;
let as: oauth.AuthorizationServer;

/** The file's server, started in beforeAll and closed in afterAll. */
export interface OAuthServer {
  readonly api: LocalApi;
  /** Its LOCAL_DIR, whose outbox holds the sign-in codes. */
  readonly dir: string;
  /** Its authorization server's metadata, as the client is configured with it. */
  readonly as: oauth.AuthorizationServer;
}

/** Starts the file's server before its tests (one a file: the helpers below reach it) and closes it after them. */
export function useOAuthServer(): OAuthServer {
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
  return {
    get api() {
      return api;
    },
    get dir() {
      return dir;
    },
    get as() {
      return as;
    },
  };
}

export interface Authorization {
  readonly url: URL;
  readonly verifier: string;
  readonly state: string;
}

export async function authorizationRequest(
  change: Record<string, string | null> = {},
): Promise<Authorization> {
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

/** The browser of the demo user, signed in by the first consent. */
export const signedInBrowser = new Browser();

/**
 * A person's path through the pages: sign in with the e-mail and the code from the outbox (once:
 * the browser's session lasts an hour, as it would for a person authorizing several clients),
 * then Allow or Deny.
 */
export async function consent(
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

export async function exchange(
  authorization: Authorization,
  callback: URL,
  verifier = authorization.verifier,
) {
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

/** A refresh grant; `parameters` adds to the request (a narrower `scope`, a `resource`). */
export async function refresh(refreshToken: string, parameters: Record<string, string> = {}) {
  const response = await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, {
    ...insecure,
    additionalParameters: parameters,
  });
  return oauth.processRefreshTokenResponse(as, client, response);
}

export async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
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

export async function familyOf(accessToken: string) {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString('utf8'));
  return api.runtime.ctx.repos.oauthGrants.getFamily(payload.fam as string);
}
