import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { PageBrowser } from '../support/oauth-person';

/**
 * Open registration (RFC 7591) under attack, over HTTP against the local server (in this process):
 * a flood from one network address, redirect URIs that are no app's own scheme, names that hide
 * characters, and a consent page asked to name a host a private-use URI carries.
 */

let api: LocalApi;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-registration-'));
  api = await startLocalApi(readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }), {
    seedUsage: false,
  });
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

/** POST /oauth/register from the loopback address `from`: the status and the JSON body. */
function register(
  metadata: Record<string, unknown>,
  from: string,
): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      `${api.baseUrl}/oauth/register`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, localAddress: from },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            retryAfter: answer.headers['retry-after'],
          }),
        );
        answer.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify(metadata));
  });
}

const app = { redirect_uris: ['http://127.0.0.1/callback'], client_name: 'Flood' };

describe('open registration', () => {
  it('refuses an eleventh registration in an hour from one network address, with 429', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1)
      statuses.push((await register(app, '127.0.0.3')).status);
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
    const refused = await register(app, '127.0.0.3');
    expect(refused).toMatchObject({ status: 429, body: { code: 429, status: 'Too Many Requests' } });
    // Retry-After: the seconds left of the fixed hour, 1 to 3600.
    expect(refused.retryAfter).toMatch(/^[1-9][0-9]*$/);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600);
    // Another network address is not held back by the flood.
    expect((await register(app, '127.0.0.4')).status).toBe(201);
  });

  it('refuses private-use schemes that are no reverse domain name (RFC 8252 §7.1)', async () => {
    for (const uri of [
      'intent://scan/cb',
      'mailto:victim@example.com',
      'view-source:https://app.example/',
      'chrome-extension://abcdefghijklmnop/cb',
      'x-callback:/cb',
    ]) {
      const answer = await register({ redirect_uris: [uri] }, '127.0.0.5');
      expect(answer.status, uri).toBe(400);
      expect(answer.body.error, uri).toBe('invalid_redirect_uri');
    }
    expect((await register({ redirect_uris: ['com.example.app:/cb'] }, '127.0.0.5')).status).toBe(201);
  });

  it('refuses a client_name with control, bidi or zero-width characters, and stores it NFC', async () => {
    for (const name of ['Good\u0000App', 'gpj.\u202Eexe', 'Trusted\u200bBank', 'Bad\uFFFD']) {
      const answer = await register({ ...app, client_name: name }, '127.0.0.6');
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.body).toMatchObject({
        error: 'invalid_client_metadata',
        errors: { client_name: [expect.any(String)] },
      });
    }
    const composed = await register({ ...app, client_name: 'Cafe\u0301' }, '127.0.0.6');
    expect(composed.body.client_name).toBe('Caf\u00e9');
  });

  it('never names on the consent page a host written in a private-use redirect URI', async () => {
    const redirectUri = 'com.example.app://bank.example/cb';
    const { body } = await register({ redirect_uris: [redirectUri], client_name: 'App' }, '127.0.0.7');
    const url = new URL(`${api.baseUrl}/oauth/authorize`);
    url.search = String(
      new URLSearchParams({
        client_id: body.client_id as string,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'plans:read',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }),
    );
    const browser = new PageBrowser();
    const started = await browser.get(String(url));
    const html = await (await browser.get(started.headers.get('location') as string)).text();
    expect(html).toContain('you go back to <strong>com.example.app:</strong>');
    expect(html).not.toContain('bank.example');
  });
});
