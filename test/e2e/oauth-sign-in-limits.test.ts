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
import { waitFor } from '../support/wait-for';

/**
 * The sign-in pages under attack, over HTTP against the local server (in this process), whose
 * outbox is a deliberately slow mail service: each mail takes `mailDelayMs` to be written, and
 * whose clock the test moves past a code check's pacing delay instead of waiting it out. Each test
 * names the attack it reproduces (docs/oauth.md, "Limits").
 */

/** Far above the answer's floor (1 s), so that an answer that waited for the mail would show it. */
const mailDelayMs = 4000;

let api: LocalApi;
let dir: string;
let orgId: string;
const clock = movedClock();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-sign-in-limits-'));
  api = await startLocalApi(
    readLocalConfig({
      LOCAL_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOCAL_MAIL_DELAY_MS: String(mailDelayMs),
    }),
    { seedUsage: false, clock },
  );
  orgId = api.credentials.org.org_id;
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Makes `email` a member of the demo customer. */
async function member(email: string): Promise<string> {
  await createUserKey(api.runtime.ctx, orgId, email, 'user');
  return email;
}

/** A browser at the sign-in page of a new authorization request of the demo client. */
async function atSignIn(browser = new PageBrowser()) {
  const url = demoAuthorizationUrl(api.baseUrl);
  const started = await browser.get(String(url));
  const html = await (await browser.get(started.headers.get('location') as string)).text();
  const form = { request: hiddenField(html, 'request'), csrf_token: hiddenField(html, 'csrf_token') };
  return { browser, form };
}

type Pending = Awaited<ReturnType<typeof atSignIn>>;

/** Posts the e-mail form: the answer as a person sees it, and how long it took. */
async function askCode({ browser, form }: Pending, email: string) {
  const started = performance.now();
  const response = await browser.post(`${api.baseUrl}/oauth/sign-in/email`, { ...form, email });
  const elapsedMs = performance.now() - started;
  const location = new URL(response.headers.get('location') as string);
  return {
    status: response.status,
    // The request's id is each request's own: the rest of the answer is compared.
    location: location.href.replace(form.request, '<request>'),
    notice: location.searchParams.get('notice'),
    setCookie: response.headers.get('set-cookie'),
    body: await response.text(),
    elapsedMs,
  };
}

async function enterCode({ browser, form }: Pending, code: string): Promise<string | null> {
  const response = await browser.post(`${api.baseUrl}/oauth/sign-in/code`, { ...form, code });
  const location = new URL(response.headers.get('location') as string);
  return response.headers.get('set-cookie') !== null ? 'signed_in' : location.searchParams.get('notice');
}

async function mailsTo(email: string): Promise<OutboxMail[]> {
  const outbox = join(dir, 'outbox');
  const files = await readdir(outbox).catch(() => [] as string[]);
  const mails = await Promise.all(
    files.sort().map(async (file) => JSON.parse(await readFile(join(outbox, file), 'utf8')) as OutboxMail),
  );
  return mails.filter((mail) => mail.to === email);
}

/** The code of the `count`-th mail to `email`, once the slow outbox has written it. */
function codeOfMail(email: string, count: number): Promise<string> {
  return waitFor(
    async () => {
      const mail = (await mailsTo(email))[count - 1];
      return mail ? (/\b(\d{6})\b/.exec(mail.text)?.[1] as string) : undefined;
    },
    { everyMs: 100 },
  );
}

/**
 * Enters `code` again and again while the pacing answers `try_later` (the code is not compared
 * then), the server's clock a tenth of a second further each time: the first other answer, and
 * when (on that clock) the try that got it was sent and its answer came.
 */
async function triedUntilOpen(
  pending: Pending,
  code: string,
): Promise<{ answer: string | null; sentAt: number; openedAt: number }> {
  for (;;) {
    const sentAt = clock.now().getTime();
    const answer = await enterCode(pending, code);
    if (answer !== 'try_later') return { answer, sentAt, openedAt: clock.now().getTime() };
    clock.forward(100);
  }
}

/** A wrong code for `code`: another six digits. */
const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('a sign-in tells no member from a non-member', () => {
  it('answers both alike, without waiting for the member’s mail', async () => {
    const email = await member('alike@demo-customer.example');
    const asMember = await askCode(await atSignIn(), email);
    // The answer is in: the slow outbox has not written the member's mail yet.
    expect(await mailsTo(email)).toEqual([]);
    const asStranger = await askCode(await atSignIn(), 'nobody@demo-customer.example');

    const { elapsedMs: memberMs, ...memberAnswer } = asMember;
    const { elapsedMs: strangerMs, ...strangerAnswer } = asStranger;
    expect(memberAnswer).toEqual(strangerAnswer);
    expect(memberAnswer.status).toBe(303);
    expect(memberAnswer.notice).toBe('code_sent');
    expect(memberAnswer.setCookie).toBeNull();
    // Both waited out the same floor (1 s); neither waited for the mail (not written at the answer,
    // above): a condition, where an upper bound on the time would fail on a loaded machine.
    for (const elapsed of [memberMs, strangerMs]) expect(elapsed).toBeGreaterThanOrEqual(990);
    // The mail goes out after the answer.
    expect(await codeOfMail(email, 1)).toMatch(/^\d{6}$/);
    expect(await mailsTo('nobody@demo-customer.example')).toEqual([]);
  });

  it('counts a non-member’s wrong codes as a member’s, and locks both after five', async () => {
    const email = await member('counted@demo-customer.example');
    const outcomes = async (address: string): Promise<(string | null)[]> => {
      const pending = await atSignIn();
      await askCode(pending, address);
      const seen: (string | null)[] = [];
      for (let guess = 0; guess < 5; guess += 1) seen.push(await enterCode(pending, '000000'));
      // Past the day's free checks, the next opens a second later (on the server's clock).
      clock.forward(1000);
      seen.push(await enterCode(pending, '000000'));
      return seen;
    };
    const [memberSeen, strangerSeen] = await Promise.all([outcomes(email), outcomes('nobody2@example.com')]);
    expect(memberSeen).toEqual([...Array(5).fill('wrong_code'), 'too_many_attempts']);
    expect(strangerSeen).toEqual(memberSeen);
  });
});

describe('limits', () => {
  it('lets no stranger use up a victim’s code requests', async () => {
    const victim = await member('victim@demo-customer.example');
    // Another network (127.0.0.2), a new session for each request; six at once (each answer
    // waits out the floor), which the conditional counters count one by one.
    const strangerAnswers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        return (await askCode(await atSignIn(new PageBrowser('127.0.0.2')), victim)).notice;
      }),
    );
    expect(strangerAnswers.sort()).toEqual([...Array(5).fill('code_sent'), 'rate_limited']);

    const pending = await atSignIn();
    expect((await askCode(pending, victim)).notice).toBe('code_sent');
    expect(await enterCode(pending, await codeOfMail(victim, 6))).toBe('signed_in');
  });

  it('makes a guesser wait longer after each wrong code, even with new codes (each fresh code checked once)', async () => {
    const email = await member('guessed@demo-customer.example');
    // Two sign-ins, their codes in hand before the guessing starts (the outbox is slow).
    const first = await atSignIn();
    await askCode(first, email);
    const second = await atSignIn();
    await askCode(second, email);
    const firstCode = await codeOfMail(email, 1);
    const code = await codeOfMail(email, 2);
    for (let guess = 0; guess < 5; guess += 1) {
      expect(await enterCode(first, wrongFor(firstCode))).toBe('wrong_code');
    }

    // A fresh code's first check passes the address's pacing (docs/oauth.md, Limits); the next
    // check is the address's fifth, after which the delays start.
    expect(await enterCode(second, wrongFor(code))).toBe('wrong_code');
    const fifthSent = clock.now().getTime();
    expect(await enterCode(second, wrongFor(code))).toBe('wrong_code');
    // Within the delay the code is not even compared: every try answers try_later, the right code
    // too, until the delay has passed on the server's clock: 1 s after the fifth check, then twice
    // as long. Only lower bounds on the time: the clock also moves with the real time, which a
    // loaded machine makes pass between two tries.
    const firstDelay = await triedUntilOpen(second, wrongFor(code));
    expect(firstDelay.answer).toBe('wrong_code');
    expect(firstDelay.openedAt - fifthSent).toBeGreaterThanOrEqual(990);
    const secondDelay = await triedUntilOpen(second, code);
    expect(secondDelay.answer).toBe('signed_in');
    expect(secondDelay.openedAt - firstDelay.sentAt).toBeGreaterThanOrEqual(1990);
  });
});
