import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import type { OutboxMail } from '../../local/outbox-mailer';
import { createUserKey } from '../../shared/app/operator';
import { demoAuthorizationUrl } from '../support/demo-authorization';
import { movedClock } from '../support/moved-clock';
import { hiddenField, PageBrowser } from '../support/oauth-person';

/**
 * A stranger cannot lock a person out of their own address (docs/oauth.md, "Limits"): wrong
 * checks from another network address and session are paced there, and the holder of a freshly
 * mailed code gets to check it. Over HTTP against the local server (in this process); the
 * stranger's browser connects from 127.0.0.2, the person's from 127.0.0.1. The server's clock is
 * one the test moves past each pacing delay rather than wait it out.
 */

let api: LocalApi;
let dir: string;
const clock = movedClock();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-sign-in-lockout-'));
  api = await startLocalApi(readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }), {
    seedUsage: false,
    clock,
  });
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A browser at the sign-in page of a new authorization request of the demo client. */
async function atSignIn(browser: PageBrowser) {
  const url = demoAuthorizationUrl(api.baseUrl);
  const started = await browser.get(String(url));
  const html = await (await browser.get(started.headers.get('location') as string)).text();
  return {
    browser,
    form: { request: hiddenField(html, 'request'), csrf_token: hiddenField(html, 'csrf_token') },
  };
}

type Pending = Awaited<ReturnType<typeof atSignIn>>;

async function askCode({ browser, form }: Pending, email: string): Promise<void> {
  const response = await browser.post(`${api.baseUrl}/oauth/sign-in/email`, { ...form, email });
  expect(new URL(response.headers.get('location') as string).searchParams.get('notice')).toBe('code_sent');
}

async function enterCode({ browser, form }: Pending, code: string): Promise<string | null> {
  const response = await browser.post(`${api.baseUrl}/oauth/sign-in/code`, { ...form, code });
  const location = new URL(response.headers.get('location') as string);
  return response.headers.get('set-cookie') !== null ? 'signed_in' : location.searchParams.get('notice');
}

/** The code of the `count`-th mail to `email`, once the outbox holds it. */
async function codeOfMail(email: string, count: number): Promise<string> {
  for (;;) {
    const outbox = join(dir, 'outbox');
    const files = (await readdir(outbox).catch(() => [] as string[])).sort();
    const mails = await Promise.all(
      files.map(async (file) => JSON.parse(await readFile(join(outbox, file), 'utf8')) as OutboxMail),
    );
    const mail = mails.filter((one) => one.to === email)[count - 1];
    if (mail) return /\b(\d{6})\b/.exec(mail.text)?.[1] as string;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/**
 * Enters `code`, asking again while the pacing answers `try_later` (the check is not made then),
 * with the server's clock a second further each time.
 */
async function enterWhenOpen(pending: Pending, code: string): Promise<string | null> {
  for (;;) {
    const answer = await enterCode(pending, code);
    if (answer !== 'try_later') return answer;
    clock.forward(1000);
  }
}

describe("a stranger's wrong codes for someone's address", () => {
  it('do not stop the holder of a freshly mailed code from another session and address', async () => {
    // Prepare: the stranger asks two codes for the victim's address (both mailed to the victim)
    // and makes 9 wrong checks as fast as the pacing lets them: the next opens 16 s later.
    const victim = 'victim@demo-customer.example';
    await createUserKey(api.runtime.ctx, api.credentials.org.org_id, victim, 'user');
    const stranger = new PageBrowser('127.0.0.2');
    const firstTry = await atSignIn(stranger);
    await askCode(firstTry, victim);
    const strangersFirst = await codeOfMail(victim, 1);
    for (let check = 0; check < 5; check += 1) {
      expect(await enterWhenOpen(firstTry, wrongFor(strangersFirst))).toBe('wrong_code');
    }
    const secondTry = await atSignIn(stranger);
    await askCode(secondTry, victim);
    const strangersSecond = await codeOfMail(victim, 2);
    for (let check = 0; check < 4; check += 1) {
      expect(await enterWhenOpen(secondTry, wrongFor(strangersSecond))).toBe('wrong_code');
    }

    // Act: the person asks a code in their own browser and enters it at once
    const person = await atSignIn(new PageBrowser());
    await askCode(person, victim);
    const answer = await enterCode(person, await codeOfMail(victim, 3));

    // Assess: signed in; the stranger, checking again at once, is the one who waits
    expect(answer).toBe('signed_in');
    expect(await enterCode(secondTry, wrongFor(strangersSecond))).toBe('try_later');
  });
});
