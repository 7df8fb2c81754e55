import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { demoUserEmail } from '../../local/demo-seed';
import { admin } from '../support/admin-cli';
import {
  authorizationRequest,
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
 * oauth4webapi (test/support/oauth-code-flow.ts): what operators do with the admin CLI: confidential clients and revoking a user's tokens.
 */

const server = useOAuthServer();

describe('operators (admin CLI)', () => {
  it('create a confidential client whose secret, shown once, authenticates it with client_secret_basic, and revoke it', async () => {
    // Prepare
    const created = await admin<{ client_id: string; client_secret: string }>(server.dir, [
      'create-oauth-client',
      '--name',
      'Ops dashboard',
      '--redirect-uri',
      'http://127.0.0.1/callback',
    ]);
    const confidential: oauth.Client = { client_id: created.client_id };
    const authorization = await authorizationRequest({ client_id: created.client_id });
    const callback = await consent(authorization);
    const params = oauth.validateAuthResponse(server.as, confidential, callback, authorization.state);

    // Act
    const refused = await oauth.authorizationCodeGrantRequest(
      server.as,
      confidential,
      oauth.None(),
      params,
      redirectUri,
      authorization.verifier,
      insecure,
    );
    const response = await oauth.authorizationCodeGrantRequest(
      server.as,
      confidential,
      oauth.ClientSecretBasic(created.client_secret),
      params,
      redirectUri,
      authorization.verifier,
      insecure,
    );

    // Assess
    expect(refused.status).toBe(401);
    expect(await oauth.processAuthorizationCodeResponse(server.as, confidential, response)).toMatchObject({
      token_type: 'bearer',
      scope: 'plans:read',
    });
    const listed = await admin<{ clients: { client_id: string; token_endpoint_auth_method: string }[] }>(
      server.dir,
      ['list-oauth-clients'],
    );
    expect(listed.clients).toContainEqual(
      expect.objectContaining({
        client_id: created.client_id,
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    );
    expect(JSON.stringify(listed)).not.toContain(created.client_secret);
    await admin(server.dir, ['revoke-oauth-client', created.client_id]);
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
    const revoked = await admin<{ revoked_token_families: unknown[] }>(server.dir, [
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
