import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { demoOAuthClient, demoUserEmail } from '../../local/demo-seed';
import type { OutboxMail } from '../../local/outbox-mailer';
import { waitFor } from './wait-for';

/**
 * A person at the local server's sign-in and consent pages, played with plain HTTP: a cookie jar
 * for the one cookie the pages set, the forms' hidden fields, and the sign-in code read from the
 * outbox (`<LOCAL_DIR>/outbox/`), as the README tells a person to.
 */
export class PageBrowser {
  cookie = '';

  /**
   * `sourceAddress`: the loopback address the browser's connections come from (127.0.0.2...),
   * a person on another network as the server sees it; the default one otherwise.
   */
  constructor(private readonly sourceAddress?: string) {}

  async get(url: string): Promise<Response> {
    const response = await this.send(url, { method: 'GET', headers: { cookie: this.cookie } });
    this.keep(response);
    return response;
  }

  async post(url: string, fields: Record<string, string>): Promise<Response> {
    const response = await this.send(url, {
      method: 'POST',
      headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: String(new URLSearchParams(fields)),
    });
    this.keep(response);
    return response;
  }

  private send(
    url: string,
    init: { method: string; headers: Record<string, string>; body?: string },
  ): Promise<Response> {
    if (this.sourceAddress === undefined) return fetch(url, { ...init, redirect: 'manual' });
    return new Promise((resolve, reject) => {
      const sent = httpRequest(url, { ...init, localAddress: this.sourceAddress }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const one of [value ?? []].flat()) headers.append(name, one);
          }
          const status = answer.statusCode ?? 0;
          resolve(
            new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), {
              status,
              headers,
            }),
          );
        });
      });
      sent.on('error', reject);
      sent.end(init.body);
    });
  }

  private keep(response: Response): void {
    const set = response.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0] as string;
  }
}

export function hiddenField(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`No ${name} field in the page:\n${html}`);
  return value;
}

/**
 * The 6-digit code of the newest mail to `email` in the outbox of the server whose LOCAL_DIR is
 * `dir`, sent at `since` or later, once the outbox holds it: the server sends mail off its answer's
 * path, so this waits for the mail, not for a time.
 */
export function latestCodeFor(dir: string, email: string, since = new Date(0)): Promise<string> {
  const outbox = join(dir, 'outbox');
  return waitFor(
    async () => {
      const files = (await readdir(outbox).catch(() => [] as string[])).sort().reverse();
      for (const file of files) {
        const mail = JSON.parse(await readFile(join(outbox, file), 'utf8')) as OutboxMail;
        if (mail.to === email && Date.parse(mail.sent_at) >= since.getTime()) {
          return /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
        }
      }
      return undefined;
    },
    { everyMs: 100 },
  );
}

export interface ConsentWalk {
  /** The server's base URL. */
  readonly baseUrl: string;
  /** The server's LOCAL_DIR, whose outbox holds the sign-in codes. */
  readonly dir: string;
  readonly email: string;
  readonly browser?: PageBrowser;
  readonly decision?: 'allow' | 'deny';
}

/**
 * Follows an authorization URL as a browser would and signs in with the code from the outbox when
 * the page asks: the consent page's HTML, in the browser that reached it.
 */
export async function consentPage(
  authorizationUrl: string | URL,
  walk: Omit<ConsentWalk, 'decision'>,
): Promise<{ readonly html: string; readonly browser: PageBrowser }> {
  const { baseUrl, dir, email, browser = new PageBrowser() } = walk;
  const started = await browser.get(String(authorizationUrl));
  const consentUrl = started.headers.get('location');
  if (started.status !== 302 || consentUrl === null) {
    throw new Error(`The authorization request was not sent to the consent page: ${started.status}`);
  }
  let html = await (await browser.get(consentUrl)).text();
  if (html.includes('name="email"')) {
    const form = { request: hiddenField(html, 'request'), csrf_token: hiddenField(html, 'csrf_token') };
    const asked = new Date();
    await browser.post(`${baseUrl}/oauth/sign-in/email`, { ...form, email });
    const entered = await browser.post(`${baseUrl}/oauth/sign-in/code`, {
      ...form,
      code: await latestCodeFor(dir, email, asked),
    });
    html = await (await browser.get(entered.headers.get('location') as string)).text();
  }
  return { html, browser };
}

/**
 * Follows an authorization URL as a browser would, signs in with the code from the outbox when
 * the page asks, decides, and answers the URL the server redirected to (the client's callback).
 */
export async function walkConsent(authorizationUrl: string | URL, walk: ConsentWalk): Promise<URL> {
  const { baseUrl, decision = 'allow' } = walk;
  const { html, browser } = await consentPage(authorizationUrl, walk);
  const decided = await browser.post(`${baseUrl}/oauth/consent`, {
    request: hiddenField(html, 'request'),
    csrf_token: hiddenField(html, 'csrf_token'),
    org_id: hiddenField(html, 'org_id'),
    decision,
  });
  const callback = decided.headers.get('location');
  if (decided.status !== 303 || callback === null) {
    throw new Error(
      `The consent was not answered with a redirect: ${decided.status}\n${await decided.text()}`,
    );
  }
  return new URL(callback);
}

/** A loopback redirect of the demo client on a port of the client's choosing (registered without one). */
export const loopbackRedirectUri = 'http://127.0.0.1:53682/callback';

/**
 * An access token of the demo user for `scope`, through the whole code flow with plain HTTP: the
 * demo client's authorization request (PKCE), the person's consent (walkConsent), the code grant,
 * on the server at `server.baseUrl` whose LOCAL_DIR is `server.dir`.
 */
export async function demoAccessToken(
  server: { readonly baseUrl: string; readonly dir: string },
  scope: string,
): Promise<string> {
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(`${server.baseUrl}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: demoOAuthClient.clientId,
    redirect_uri: loopbackRedirectUri,
    response_type: 'code',
    scope,
    state: oauth.generateRandomState(),
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const callback = await walkConsent(url, { ...server, email: demoUserEmail });
  const response = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: demoOAuthClient.clientId,
      code: callback.searchParams.get('code') as string,
      redirect_uri: loopbackRedirectUri,
      code_verifier: verifier,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
