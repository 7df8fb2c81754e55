import type * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { demoUserEmail } from '../../local/demo-seed';
import {
  authorizationRequest,
  exchange,
  familyOf,
  oauthErrorOf,
  refresh,
  useOAuthServer,
} from '../support/oauth-code-flow';
import { walkConsent } from '../support/oauth-person';

/**
 * A refresh refused for what it asks (`invalid_scope`, `invalid_target`) does not spend the refresh
 * token (docs/oauth.md, Tokens): the client's corrected retry with the same token succeeds and its
 * family stays live. Driven by an unmodified oauth4webapi against the local server over HTTP.
 */

const server = useOAuthServer();

/** Tokens of a fresh authorization of the demo user, for `plans:read plans:apply`. */
async function freshTokens(): Promise<oauth.TokenEndpointResponse> {
  const authorization = await authorizationRequest({ scope: 'plans:read plans:apply' });
  const callback = await walkConsent(authorization.url, {
    baseUrl: server.api.baseUrl,
    dir: server.dir,
    email: demoUserEmail,
  });
  return exchange(authorization, callback);
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
