import * as oauth from 'oauth4webapi';
import { describe, expect, it, vi } from 'vitest';
import {
  authorizationRequest,
  client,
  clientAuth,
  consent,
  exchange,
  familyOf,
  insecure,
  oauthErrorOf,
  refresh,
  signedInBrowser,
  useOAuthServer,
} from '../support/oauth-code-flow';
import { PageBrowser as Browser, hiddenField } from '../support/oauth-person';

/**
 * The authorization server over HTTP, against the local server in this process, driven by
 * oauth4webapi (test/support/oauth-code-flow.ts): what the authorization and token endpoints refuse: no PKCE, unregistered redirects, wrong verifiers, replayed codes and refresh tokens, late codes, forged forms.
 */

const server = useOAuthServer();

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
          Promise.resolve().then(() =>
            oauth.validateAuthResponse(server.as, client, callback, authorization.state),
          ),
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
    const params = oauth.validateAuthResponse(server.as, client, callback, second.state);
    const response = await oauth.authorizationCodeGrantRequest(
      server.as,
      client,
      clientAuth,
      params,
      'http://127.0.0.1:1/callback',
      second.verifier,
      insecure,
    );
    expect(await oauthErrorOf(oauth.processAuthorizationCodeResponse(server.as, client, response))).toBe(
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
    const forged = await new Browser().post(`${server.api.baseUrl}/oauth/consent`, {
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
    const response = await fetch(server.as.token_endpoint as string, {
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
