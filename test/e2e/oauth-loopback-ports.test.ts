import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { authorizationResponse } from '../../shared/app/oauth/authorization';
import { OAuthError } from '../../shared/domain/oauth/errors';
import { PageBrowser } from '../support/oauth-person';

/**
 * Ports of loopback redirect URIs (docs/oauth.md, Clients): 1 to 65535 written without leading
 * zeros, at registration and in an authorization request; a URI that is no usable address is a
 * 400, never a 500 and never a redirect. Over HTTP against the local server (in this process).
 */

let api: LocalApi;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-loopback-ports-'));
  api = await startLocalApi(readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }), {
    seedUsage: false,
  });
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

async function register(redirectUri: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${api.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'Ports' }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** GET /oauth/authorize of `clientId` with `redirectUri`: the status and the body. */
async function authorize(clientId: string, redirectUri: string): Promise<{ status: number; body: string }> {
  const url = new URL(`${api.baseUrl}/oauth/authorize`);
  url.search = String(
    new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      // An unsupported response type: a matched redirect URI answers with an error redirect.
      response_type: 'token',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }),
  );
  const response = await new PageBrowser().get(String(url));
  return { status: response.status, body: await response.text() };
}

describe('loopback redirect ports at registration', () => {
  it.each([
    'http://127.0.0.1:99999/callback',
    'http://127.0.0.1:0/callback',
    'http://127.0.0.1:08765/callback',
    'http://localhost:65536/callback',
  ])('refuses %s with invalid_redirect_uri', async (uri) => {
    // Act
    const answer = await register(uri);

    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_redirect_uri');
  });

  it('registers ports 1 and 65535', async () => {
    expect((await register('http://127.0.0.1:1/callback')).status).toBe(201);
    expect((await register('http://[::1]:65535/callback')).status).toBe(201);
  });
});

describe('loopback redirect ports in an authorization request', () => {
  it('answers a request whose port is no port with a 400 page, not a 500 and not a redirect', async () => {
    // Prepare
    const { body } = await register('http://127.0.0.1/callback');
    const clientId = body.client_id as string;

    // Act
    const outOfRange = await authorize(clientId, 'http://127.0.0.1:99999/callback');
    const zero = await authorize(clientId, 'http://127.0.0.1:0/callback');
    const chosen = await authorize(clientId, 'http://127.0.0.1:8765/callback');

    // Assess
    expect([outOfRange.status, zero.status]).toEqual([400, 400]);
    expect(outOfRange.body).toContain('did not register');
    expect(chosen.status).toBe(302);
  });

  it('fails closed on a URI stored before the rule: a 400 page, no redirect', async () => {
    // Prepare: a client registered when port 0 still passed.
    const clientId = 'stored-before-the-port-rule';
    await api.runtime.ctx.repos.oauthClients.createClient({
      clientId,
      name: 'Old',
      redirectUris: ['http://127.0.0.1:0/callback'],
      authMethod: 'none',
      secretHash: null,
      registration: 'dynamic',
      createdAt: new Date().toISOString(),
      revokedAt: null,
    });

    // Act
    const answer = await authorize(clientId, 'http://127.0.0.1:0/callback');

    // Assess
    expect(answer.status).toBe(400);
  });

  it('refuses to build a redirect to a URI the URL parser refuses, as an OAuth error (a 400 page)', () => {
    expect(() => authorizationResponse(api.baseUrl, 'http://127.0.0.1:99999/callback', {})).toThrow(
      OAuthError,
    );
  });
});
