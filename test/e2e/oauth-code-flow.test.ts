import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import {
  authorizationRequest,
  client,
  clientAuth,
  consent,
  exchange,
  familyOf,
  insecure,
  oauthErrorOf,
  redirectUri,
  refresh,
  useOAuthServer,
} from '../support/oauth-code-flow';

/**
 * The authorization server over HTTP, against the local server in this process, driven by
 * oauth4webapi (test/support/oauth-code-flow.ts): the authorization code flow with PKCE: sign in, allow or deny, exchange and refresh.
 */

const server = useOAuthServer();

describe('the authorization code flow with PKCE, by oauth4webapi', () => {
  it('signs in by e-mail code, allows, exchanges the code and refreshes with rotation', async () => {
    // Prepare
    const authorization = await authorizationRequest();
    const callback = await consent(authorization);

    // Act
    const tokens = await exchange(authorization, callback);
    const refreshed = await refresh(tokens.refresh_token as string);

    // Assess
    expect(callback.searchParams.get('iss')).toBe(server.api.baseUrl);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 900, scope: 'plans:read' });
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await familyOf(refreshed.access_token))?.revoked).toBe(false);
  });

  it('answers Deny with access_denied, the state and the issuer', async () => {
    const authorization = await authorizationRequest();
    const callback = await consent(authorization, 'deny');
    expect(
      await oauthErrorOf(
        Promise.resolve().then(() =>
          oauth.validateAuthResponse(server.as, client, callback, authorization.state),
        ),
      ),
    ).toBe('access_denied');
  });

  it('sends the token response with Cache-Control: no-store', async () => {
    const authorization = await authorizationRequest();
    const callback = await consent(authorization);
    const params = oauth.validateAuthResponse(server.as, client, callback, authorization.state);
    const response = await oauth.authorizationCodeGrantRequest(
      server.as,
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
