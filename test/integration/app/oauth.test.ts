import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAuthorization } from '../../../shared/app/oauth/authorization';
import {
  authenticateClient,
  createOperatorClient,
  registerClient,
  revokeUserTokens,
} from '../../../shared/app/oauth/clients';
import type { OAuthContext } from '../../../shared/app/oauth/oauth-context';
import {
  decideAuthorization,
  requestSignInCode,
  signInPage,
  verifySignInCode,
} from '../../../shared/app/oauth/sign-in';
import { exchangeCode, refreshTokens, revokeToken } from '../../../shared/app/oauth/tokens';
import { createOrg, createUserKey } from '../../../shared/app/operator';
import type { AppContext, MailMessage } from '../../../shared/app/ports';
import { OAuthError } from '../../../shared/domain/oauth/errors';
import type { OAuthClient } from '../../../shared/domain/oauth/records';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { createTestSigner } from '../../support/test-signer';

/**
 * The authorization server's rules, through its use cases on dynalite: PKCE, redirect matching,
 * single-use and short-lived codes, refresh rotation and reuse detection, client authentication.
 */

const issuer = 'http://127.0.0.1:3999';
const redirectUri = 'http://127.0.0.1/callback';
const email = 'ann@example.com';
/** The network address registrations come from (each test runs an hour after the one before). */
const sourceIp = '192.0.2.1';

let table: TestTable;
// Every repository: the operators' use cases run on it too.
let ctx: OAuthContext & AppContext;
let nowMs = Date.parse('2026-11-20T10:00:00Z');
const mails: MailMessage[] = [];
let orgId: string;
let client: OAuthClient;

beforeAll(async () => {
  table = await startTestTable();
  ctx = {
    repos: table.store,
    clock: { now: () => new Date(nowMs) },
    ids: { uuid: () => randomUUID() },
    issuer,
    mailer: { send: async (message) => void mails.push(message) },
    signInCodeKey: async () => 'integration-test-sign-in-code-key',
    signer: await createTestSigner(),
  };
  orgId = (await createOrg(ctx, 'Acme', null)).id;
  await createUserKey(ctx, orgId, email, 'admin');
  client = await registerClient(ctx, { redirect_uris: [redirectUri], client_name: 'Test app' }, sourceIp);
});

afterAll(async () => {
  await table?.close();
});

beforeEach(() => {
  nowMs += 3_600_000;
});

/** Runs authorize, sign-in and consent for `client`: the code and the verifier. */
async function authorizedCode(
  options: { port?: number } = {},
): Promise<{ code: string; verifier: string; redirect: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const redirect = options.port ? `http://127.0.0.1:${options.port}/callback` : redirectUri;
  const started = await startAuthorization(ctx, {
    client_id: client.clientId,
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'plans:read',
    state: 'st',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  if (started.kind !== 'consent') throw new Error(`authorize answered ${JSON.stringify(started)}`);
  const page = await signInPage(ctx, started.requestId, null);
  const post = {
    requestId: started.requestId,
    sessionToken: page.browser.token,
    csrfToken: page.browser.session.csrfToken,
  };
  const requested = await requestSignInCode(ctx, { ...post, email, sourceIp: '192.0.2.1' });
  expect(requested.notice).toBe('code_sent');
  await requested.mailing;
  const code = /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '')?.[1] ?? '';
  const verified = await verifySignInCode(ctx, { ...post, code, sourceIp: '192.0.2.1' });
  if (!('signedIn' in verified)) throw new Error(`sign-in answered ${verified.notice}`);
  const signedIn = verified.signedIn;
  const decided = await decideAuthorization(ctx, {
    requestId: started.requestId,
    sessionToken: signedIn.token,
    csrfToken: signedIn.session.csrfToken,
    decision: 'allow',
    orgId,
  });
  if (!('location' in decided)) throw new Error(`consent answered ${decided.notice}`);
  const location = new URL(decided.location);
  expect(location.searchParams.get('iss')).toBe(issuer);
  expect(location.searchParams.get('state')).toBe('st');
  return { code: location.searchParams.get('code') ?? '', verifier, redirect };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OAuthError) return error.oauthCode;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('authorize', () => {
  const base = async () => ({
    client_id: client.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    state: 'st',
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: 'S256',
  });

  it('shows an error page, never a redirect, for an unknown client or an unregistered redirect', async () => {
    expect((await startAuthorization(ctx, { ...(await base()), client_id: 'nobody' })).kind).toBe(
      'error-page',
    );
    expect(
      (await startAuthorization(ctx, { ...(await base()), redirect_uri: 'https://attacker.example/cb' }))
        .kind,
    ).toBe('error-page');
    expect(
      (await startAuthorization(ctx, { ...(await base()), redirect_uri: 'http://127.0.0.1/callback/x' }))
        .kind,
    ).toBe('error-page');
  });

  it('redirects other errors back with error, state and iss: PKCE missing or plain, unknown scope or resource', async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'plans:read root' }, 'invalid_scope'],
      [{ resource: 'https://other.example' }, 'invalid_target'],
    ];
    for (const [change, error] of cases) {
      // Act
      const outcome = await startAuthorization(ctx, { ...(await base()), ...change });

      // Assess
      if (outcome.kind !== 'redirect') throw new Error(`expected a redirect for ${JSON.stringify(change)}`);
      const location = new URL(outcome.location);
      expect(location.origin + location.pathname).toBe(redirectUri);
      expect(Object.fromEntries(location.searchParams)).toMatchObject({ error, state: 'st', iss: issuer });
    }
  });
});

describe('authorization code', () => {
  it('is exchanged once for tokens whose access token names the family, the user and the org', async () => {
    // Prepare
    const { code, verifier, redirect } = await authorizedCode({ port: 50_123 });

    // Act
    const tokens = await exchangeCode(ctx, client, { code, redirectUri: redirect, codeVerifier: verifier });

    // Assess
    const keys = createLocalJWKSet({ keys: [...(await ctx.signer.publicKeys())] });
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, keys, {
      issuer,
      audience: issuer,
      currentDate: new Date(nowMs),
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(payload).toMatchObject({
      sub: email,
      org_id: orgId,
      scope: 'plans:read',
      client_id: client.clientId,
    });
    expect(payload.exp).toBe((payload.iat ?? 0) + 900);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'plans:read' });
    expect((await ctx.repos.oauthGrants.getFamily(payload.fam as string))?.revoked).toBe(false);
  });

  it('refuses a wrong verifier and a different redirect URI', async () => {
    const first = await authorizedCode();
    expect(
      await refusal(
        exchangeCode(ctx, client, {
          code: first.code,
          redirectUri: redirectUri,
          codeVerifier: oauth.generateRandomCodeVerifier(),
        }),
      ),
    ).toBe('invalid_grant');
    const second = await authorizedCode();
    expect(
      await refusal(
        exchangeCode(ctx, client, {
          code: second.code,
          redirectUri: 'http://127.0.0.1:1/callback',
          codeVerifier: second.verifier,
        }),
      ),
    ).toBe('invalid_grant');
  });

  it('revokes the tokens a replayed code issued', async () => {
    // Prepare
    const { code, verifier } = await authorizedCode();
    const tokens = await exchangeCode(ctx, client, { code, redirectUri, codeVerifier: verifier });

    // Act
    const replay = await refusal(exchangeCode(ctx, client, { code, redirectUri, codeVerifier: verifier }));

    // Assess
    expect(replay).toBe('invalid_grant');
    const refreshed = await refusal(refreshTokens(ctx, client, { refreshToken: tokens.refresh_token }));
    expect(refreshed).toBe('invalid_grant');
    const family = (await ctx.repos.oauthGrants.familiesOfUser(email)).at(-1);
    expect(family?.revoked).toBe(true);
  });

  it('expires after 60 seconds', async () => {
    // Prepare
    const { code, verifier } = await authorizedCode();
    nowMs += 61_000;

    // Act
    const expired = await refusal(exchangeCode(ctx, client, { code, redirectUri, codeVerifier: verifier }));

    // Assess
    expect(expired).toBe('invalid_grant');
  });

  it('is refused to another client, which spends it for nobody', async () => {
    const { code, verifier } = await authorizedCode();
    const other = await registerClient(ctx, { redirect_uris: [redirectUri] }, sourceIp);
    expect(await refusal(exchangeCode(ctx, other, { code, redirectUri, codeVerifier: verifier }))).toBe(
      'invalid_grant',
    );
  });
});

describe('refresh token', () => {
  it('rotates on every use, and a reused one revokes its family', async () => {
    // Prepare
    const { code, verifier } = await authorizedCode();
    const first = await exchangeCode(ctx, client, { code, redirectUri, codeVerifier: verifier });

    // Act
    const second = await refreshTokens(ctx, client, { refreshToken: first.refresh_token });
    const reuse = await refusal(refreshTokens(ctx, client, { refreshToken: first.refresh_token }));

    // Assess
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(reuse).toBe('invalid_grant');
    expect(await refusal(refreshTokens(ctx, client, { refreshToken: second.refresh_token }))).toBe(
      'invalid_grant',
    );
  });

  it('may narrow the scope but not widen it', async () => {
    const { code, verifier } = await authorizedCode();
    const first = await exchangeCode(ctx, client, { code, redirectUri, codeVerifier: verifier });
    expect(
      await refusal(refreshTokens(ctx, client, { refreshToken: first.refresh_token, scope: 'plans:apply' })),
    ).toBe('invalid_scope');
  });

  it('expires after 30 idle days, and a family after 90 days however used', async () => {
    // Prepare
    const { code, verifier } = await authorizedCode();
    let tokens = await exchangeCode(ctx, client, { code, redirectUri, codeVerifier: verifier });
    for (let day = 0; day < 3; day += 1) {
      nowMs += 29 * 86_400_000;
      tokens = await refreshTokens(ctx, client, { refreshToken: tokens.refresh_token });
    }

    // Act
    nowMs += 4 * 86_400_000;
    const afterNinetyDays = await refusal(refreshTokens(ctx, client, { refreshToken: tokens.refresh_token }));

    // Assess
    expect(afterNinetyDays).toBe('invalid_grant');
    const idle = await authorizedCode();
    const idleTokens = await exchangeCode(ctx, client, {
      code: idle.code,
      redirectUri,
      codeVerifier: idle.verifier,
    });
    nowMs += 31 * 86_400_000;
    expect(await refusal(refreshTokens(ctx, client, { refreshToken: idleTokens.refresh_token }))).toBe(
      'invalid_grant',
    );
  });

  it('is revoked with its family through RFC 7009 and by the operator for a user', async () => {
    const one = await authorizedCode();
    const tokens = await exchangeCode(ctx, client, {
      code: one.code,
      redirectUri,
      codeVerifier: one.verifier,
    });
    await revokeToken(ctx, client, tokens.access_token, 'access_token');
    expect(await refusal(refreshTokens(ctx, client, { refreshToken: tokens.refresh_token }))).toBe(
      'invalid_grant',
    );

    const two = await authorizedCode();
    const more = await exchangeCode(ctx, client, { code: two.code, redirectUri, codeVerifier: two.verifier });
    expect((await revokeUserTokens(ctx, email)).length).toBeGreaterThan(0);
    expect(await refusal(refreshTokens(ctx, client, { refreshToken: more.refresh_token }))).toBe(
      'invalid_grant',
    );
  });
});

describe('client authentication', () => {
  it('takes each client by its registered method only', async () => {
    // Prepare
    const basic = await createOperatorClient(ctx, {
      name: 'Dashboard',
      redirectUris: ['https://dash.example/cb'],
      authMethod: 'client_secret_basic',
    });
    const post = await createOperatorClient(ctx, {
      name: 'Batch',
      redirectUris: ['https://batch.example/cb'],
      authMethod: 'client_secret_post',
    });
    const basicHeader = `Basic ${Buffer.from(`${basic.client.clientId}:${basic.secret}`).toString('base64')}`;

    // Assess
    expect((await authenticateClient(ctx, { authorization: basicHeader })).clientId).toBe(
      basic.client.clientId,
    );
    expect(
      (await authenticateClient(ctx, { clientId: post.client.clientId, clientSecret: post.secret ?? '' }))
        .clientId,
    ).toBe(post.client.clientId);
    expect((await authenticateClient(ctx, { clientId: client.clientId })).clientId).toBe(client.clientId);
    expect(await refusal(authenticateClient(ctx, { clientId: basic.client.clientId }))).toBe(
      'invalid_client',
    );
    expect(
      await refusal(
        authenticateClient(ctx, { clientId: basic.client.clientId, clientSecret: basic.secret ?? '' }),
      ),
    ).toBe('invalid_client');
    expect(
      await refusal(authenticateClient(ctx, { clientId: post.client.clientId, clientSecret: 'wrong' })),
    ).toBe('invalid_client');
    expect(await refusal(authenticateClient(ctx, { clientId: client.clientId, clientSecret: 'x' }))).toBe(
      'invalid_client',
    );
    expect(await refusal(authenticateClient(ctx, { clientId: 'unknown' }))).toBe('invalid_client');
  });

  it('registers public clients only, with https, loopback or app redirect URIs', async () => {
    expect(await refusal(registerClient(ctx, { redirect_uris: ['http://app.example/cb'] }, sourceIp))).toBe(
      'invalid_redirect_uri',
    );
    expect(
      await refusal(
        registerClient(
          ctx,
          { redirect_uris: [redirectUri], token_endpoint_auth_method: 'client_secret_basic' },
          sourceIp,
        ),
      ),
    ).toBe('invalid_client_metadata');
    const registered = await registerClient(
      ctx,
      { redirect_uris: ['com.example.app:/cb', 'https://app.example/cb'] },
      sourceIp,
    );
    expect(registered).toMatchObject({ authMethod: 'none', registration: 'dynamic', secretHash: null });
  });
});
