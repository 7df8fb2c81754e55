import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOAuthClient, demoUserEmail } from '../../local/demo-seed';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { launchChromium } from '../support/headless-chromium';
import { latestCodeFor } from '../support/oauth-person';

/**
 * The sign-in and consent pages in headless Chromium (Debian's `chromium`, driven by
 * playwright-core): a person's path, Deny, and a page of another origin that frames the consent
 * page. The client is the demo's public client; its loopback redirect is a small server of this
 * test that also serves the framing page. Screenshots go to `test-results/oauth-pages/` (kept by
 * CI as artifacts, ignored by git).
 */

const screenshots = join(process.cwd(), 'test-results', 'oauth-pages');

let api: LocalApi;
let dir: string;
let browser: Browser;
let context: BrowserContext;
let clientSite: Server;
let clientOrigin: string;

beforeAll(async () => {
  await mkdir(screenshots, { recursive: true });
  dir = await mkdtemp(join(tmpdir(), 'e2e-oauth-pages-'));
  api = await startLocalApi(
    { ...readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }) },
    { seedUsage: false },
  );
  clientSite = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/framer') {
      const framed = url.searchParams.get('src') ?? '';
      response.end(`<!doctype html><title>Framer</title><h1>A page of another site</h1>
<iframe id="framed" title="framed consent" src="${framed.replaceAll('"', '&quot;')}" width="600" height="400"></iframe>`);
      return;
    }
    response.end('<!doctype html><title>Client</title><h1>Back at the client</h1>');
  });
  await new Promise<void>((resolve) => clientSite.listen(0, '127.0.0.1', resolve));
  clientOrigin = `http://127.0.0.1:${(clientSite.address() as AddressInfo).port}`;
  browser = await launchChromium();
  context = await browser.newContext();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await new Promise((resolve) => (clientSite ? clientSite.close(resolve) : resolve(undefined)));
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Authorization {
  readonly url: string;
  readonly state: string;
  readonly redirectUri: string;
}

async function authorization(): Promise<Authorization> {
  const state = oauth.generateRandomState();
  const redirectUri = `${clientOrigin}/callback`;
  const url = new URL(`${api.baseUrl}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: demoOAuthClient.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'plans:read',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: 'S256',
  }).toString();
  return { url: url.href, state, redirectUri };
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

describe('the sign-in and consent pages in headless Chromium', () => {
  it('lead a person from the e-mail and the code from the outbox to Allow, back to the client with code, state and iss', async () => {
    // Prepare
    const request = await authorization();
    const page = await context.newPage();

    // Act
    await page.goto(request.url);
    await shoot(page, '1-sign-in');
    await page.getByLabel('Your e-mail address').fill(demoUserEmail);
    await page.getByRole('button', { name: 'Send me a sign-in code' }).click();
    await page.getByLabel('6-digit code').waitFor();
    await shoot(page, '2-code');
    await page.getByLabel('6-digit code').fill(await latestCodeFor(dir, demoUserEmail));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
    await shoot(page, '3-consent');
    const consentText = await page.locator('body').innerText();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(request.redirectUri));
    await shoot(page, '4-allowed');

    // Assess
    expect(consentText).toContain('Read your commitment plans');
    expect(consentText).toContain(demoUserEmail);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toEqual(expect.any(String));
    expect(landed.searchParams.get('state')).toBe(request.state);
    expect(landed.searchParams.get('iss')).toBe(api.baseUrl);
    await page.close();
  });

  it('send Deny back to the client as access_denied with the state and the issuer', async () => {
    // Prepare: the browser is still signed in from the person's path
    const request = await authorization();
    const page = await context.newPage();
    await page.goto(request.url);
    await page.getByRole('heading', { name: 'Allow access?' }).waitFor();

    // Act
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.href.startsWith(request.redirectUri));
    await shoot(page, '5-denied');

    // Assess
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('code')).toBeNull();
    expect(landed.searchParams.get('state')).toBe(request.state);
    expect(landed.searchParams.get('iss')).toBe(api.baseUrl);
    await page.close();
  });

  it('refuse to be framed by another site: the frame shows none of the page', async () => {
    // Prepare
    const started = await fetch((await authorization()).url, { redirect: 'manual' });
    const consentUrl = started.headers.get('location') as string;
    const page = await context.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => refusals.push(message.text()));

    // Act
    await page.goto(`${clientOrigin}/framer?src=${encodeURIComponent(consentUrl)}`);
    await page.waitForLoadState('load');
    await shoot(page, '6-framed');

    // Assess
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(frame).toBeDefined();
    expect(frame?.url()).not.toBe(consentUrl);
    expect(await frame?.locator('form, input, button').count()).toBe(0);
    expect(refusals.join('\n')).toMatch(/frame-ancestors 'none'|X-Frame-Options/);
    await page.close();
  });
});
