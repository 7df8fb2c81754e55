import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorization } from '../../../shared/app/oauth/authorization';
import { registerClient } from '../../../shared/app/oauth/clients';
import type { OAuthContext } from '../../../shared/app/oauth/oauth-context';
import { requestSignInCode, signInPage, verifySignInCode } from '../../../shared/app/oauth/sign-in';
import { createOrg, createUserKey } from '../../../shared/app/operator';
import type { AppContext, MailMessage } from '../../../shared/app/ports';
import { checkDelaySeconds, codeCheckLimits } from '../../../shared/domain/oauth/sign-in-limits';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { createTestSigner } from '../../support/test-signer';

/**
 * The day's cap on code checks, on dynalite with a clock the test moves: the e2e test shows the
 * doubling delay over HTTP; a day of it would take a day there.
 */

const email = 'guessed@example.com';
let table: TestTable;
let ctx: OAuthContext & AppContext;
// 2026-11-20T00:00:00Z: a UTC day starts.
let nowMs = Date.parse('2026-11-20T00:00:00Z');
const mails: MailMessage[] = [];
let clientId: string;

beforeAll(async () => {
  table = await startTestTable();
  ctx = {
    repos: table.store,
    clock: { now: () => new Date(nowMs) },
    ids: { uuid: () => randomUUID() },
    issuer: 'http://127.0.0.1:3999',
    mailer: { send: async (message) => void mails.push(message) },
    signInCodeKey: async () => 'integration-test-sign-in-code-key',
    signer: await createTestSigner(),
  };
  const org = await createOrg(ctx, 'Acme', null);
  await createUserKey(ctx, org.id, email, 'admin');
  clientId = (await registerClient(ctx, { redirect_uris: ['http://127.0.0.1/cb'] }, '192.0.2.1')).clientId;
});

afterAll(async () => {
  await table?.close();
});

/** A new sign-in for `email`, its code asked for: the form's fields and the mailed code. */
async function codeAsked(sourceIp: string) {
  const started = await startAuthorization(ctx, {
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1/cb',
    response_type: 'code',
    scope: 'plans:read',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  if (started.kind !== 'consent') throw new Error(`authorize answered ${started.kind}`);
  const page = await signInPage(ctx, started.requestId, null);
  const post = {
    requestId: started.requestId,
    sessionToken: page.browser.token,
    csrfToken: page.browser.session.csrfToken,
  };
  const asked = await requestSignInCode(ctx, { ...post, email, sourceIp });
  expect(asked.notice).toBe('code_sent');
  await asked.mailing;
  const code = /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '')?.[1] as string;
  return { post: { ...post, sourceIp }, code };
}

const notice = (outcome: Awaited<ReturnType<typeof verifySignInCode>>) =>
  'signedIn' in outcome ? 'signed_in' : outcome.notice;

describe('code checks per address and day', () => {
  it('stop at 30 wrong codes a day (20 paced, 10 first checks of fresh codes), and open again the next day', async () => {
    const fresh = codeCheckLimits.freshCodeChecksPerAddressPerDay;
    for (let check = 0; check < codeCheckLimits.perAddressPerDay + fresh; check += 1) {
      // A new code for every guess (from a new network address: the request limits are not what
      // is tested here). The first checks of the first 10 fresh codes pass the address's pacing;
      // each later guess comes as soon as the delay the check before set has passed.
      nowMs += (check <= fresh ? 0 : checkDelaySeconds(check - fresh - 1)) * 1000 + 1000;
      const { post, code } = await codeAsked(`198.51.100.${check + 1}`);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      expect(notice(await verifySignInCode(ctx, { ...post, code: wrong })), `check ${check + 1}`).toBe(
        'wrong_code',
      );
    }
    // Past the last delay (an hour), still 2026-11-20: the right code is not even compared.
    nowMs += 3_600_000 + 1000;
    expect(new Date(nowMs).toISOString().slice(0, 10)).toBe('2026-11-20');
    const { post, code } = await codeAsked('203.0.113.1');
    expect(notice(await verifySignInCode(ctx, { ...post, code }))).toBe('try_later');

    // The next UTC day, the right code signs in.
    nowMs = Date.parse('2026-11-21T00:00:01Z');
    const next = await codeAsked('203.0.113.2');
    expect(notice(await verifySignInCode(ctx, { ...next.post, code: next.code }))).toBe('signed_in');
  });
});
