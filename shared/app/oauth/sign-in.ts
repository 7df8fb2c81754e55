import {
  equalSecrets,
  matchesSignInCodeHash,
  oneTimeCode,
  randomSecret,
  secretHash,
  signInCodeHash,
} from '../../auth/oauth-secrets';
import { OAuthError } from '../../domain/oauth/errors';
import {
  hasExpired,
  oauthLifetimes,
  type SignInSession,
  secondsAfter,
  signInCodeAttempts,
} from '../../domain/oauth/records';
import { codeCheckLimits, codeRequestLimits, fixedWindow } from '../../domain/oauth/sign-in-limits';
import { normalizeEmail } from '../../domain/orgs';
import type { ContextWith } from '../ports';
import { authorizationResponse, type PendingAuthorization, pendingAuthorization } from './authorization';
import { withinCodeCheckLimits } from './code-check-limits';
import type { OAuthContext } from './oauth-context';

/**
 * The sign-in and consent pages' steps (docs/oauth.md): a browser session (a cookie holding a random
 * id, stored hashed) carries a CSRF token every form posts; the user asks for a one-time code by
 * e-mail, enters it, then allows or denies the pending request for one of their orgs.
 */

/** What the pages show a user after a step that did not go through (a fixed list: never echoed input). */
export type SignInNotice =
  | 'code_sent'
  | 'wrong_code'
  | 'code_expired'
  | 'too_many_attempts'
  | 'rate_limited'
  | 'try_later'
  | 'not_a_member'
  | 'invalid_email';

/** A session as the pages use it: the cookie value (to set when new) and the stored state. */
export interface BrowserSession {
  readonly token: string;
  readonly session: SignInSession;
  /** Whether it was created by this request: the response sets its cookie. */
  readonly isNew: boolean;
}

/** The session of the cookie's value, or a new anonymous one when it is absent, unknown or expired. */
export async function openSession(
  ctx: ContextWith<'signIns'>,
  token: string | null,
): Promise<BrowserSession> {
  if (token !== null) {
    const session = await ctx.repos.signIns.getSession(secretHash(token));
    if (session !== null && !hasExpired(session.expiresAt, ctx.clock.now())) {
      return { token, session, isNew: false };
    }
  }
  return createSession(ctx, { email: null, pendingEmail: null });
}

async function createSession(
  ctx: ContextWith<'signIns'>,
  state: Pick<SignInSession, 'email' | 'pendingEmail'>,
): Promise<BrowserSession> {
  const token = randomSecret();
  const session: SignInSession = {
    sessionHash: secretHash(token),
    csrfToken: randomSecret(),
    ...state,
    expiresAt: secondsAfter(ctx.clock.now(), oauthLifetimes.session),
  };
  await ctx.repos.signIns.putSession(session);
  return { token, session, isNew: true };
}

/** An org the signed-in user may grant access to. */
export interface GrantableOrg {
  readonly orgId: string;
  readonly name: string;
  readonly role: string;
  /** The partner that made the user a member, by name, and when (docs/oauth.md, Consent). */
  readonly addedBy: { readonly partnerName: string; readonly at: string } | null;
}

/** What the page of a pending request shows: which step, for whom. */
export interface SignInPage {
  readonly pending: PendingAuthorization;
  readonly browser: BrowserSession;
  readonly step: 'email' | 'code' | 'consent';
  /** The signed-in user's orgs (consent step). */
  readonly orgs: readonly GrantableOrg[];
}

export async function signInPage(
  ctx: ContextWith<'signIns' | 'memberships' | 'orgs'>,
  requestId: string,
  sessionToken: string | null,
): Promise<SignInPage> {
  const pending = await pendingAuthorization(ctx, requestId);
  const browser = await openSession(ctx, sessionToken);
  const { email, pendingEmail } = browser.session;
  if (email !== null) {
    return { pending, browser, step: 'consent', orgs: await grantableOrgs(ctx, email) };
  }
  return { pending, browser, step: pendingEmail !== null ? 'code' : 'email', orgs: [] };
}

async function grantableOrgs(
  ctx: ContextWith<'memberships' | 'orgs'>,
  email: string,
): Promise<GrantableOrg[]> {
  const memberships = await ctx.repos.memberships.listByUser(email);
  const orgs = await Promise.all(
    memberships.map(async (membership) => {
      const [org, partner] = await Promise.all([
        ctx.repos.orgs.get(membership.orgId),
        membership.addedBy ? ctx.repos.orgs.get(membership.addedBy.partnerOrgId) : null,
      ]);
      if (org === null) return null;
      const addedBy =
        membership.addedBy && partner ? { partnerName: partner.name, at: membership.addedBy.at } : null;
      return { orgId: org.id, name: org.name, role: membership.role, addedBy };
    }),
  );
  return orgs.filter((org) => org !== null).sort((a, b) => a.name.localeCompare(b.name));
}

/** A form post of the pages: its pending request, its session cookie and CSRF token. */
export interface PagePost {
  readonly requestId: string;
  readonly sessionToken: string | null;
  readonly csrfToken: string;
}

/**
 * The session a form was posted in, when its CSRF token is the session's: otherwise the post
 * came from elsewhere (or a stale page) and is refused.
 */
async function postedSession(ctx: ContextWith<'signIns'>, post: PagePost): Promise<BrowserSession> {
  const refused = new OAuthError('invalid_request', 'The form expired. Reload the page and try again.');
  if (post.sessionToken === null) throw refused;
  const browser = await openSession(ctx, post.sessionToken);
  if (browser.isNew || !equalSecrets(post.csrfToken, browser.session.csrfToken)) throw refused;
  return browser;
}

/** The answer to a code request, and the mail it sends (settled off the answer's path). */
export interface CodeRequestOutcome {
  readonly notice: SignInNotice;
  /** The sending of the code's mail, for a member; null otherwise. Its failure is the caller's to log. */
  readonly mailing: Promise<void> | null;
}

/**
 * Stores a one-time code for the pending request and `email`, and sends it if the address is a
 * member of an org. Members and non-members go through the same steps (a non-member's code is
 * stored too, and its wrong guesses count alike) and get the same answer; the mail is returned
 * unawaited, so that its sending never shows in the answer (docs/oauth.md, "Sign-in").
 */
export async function requestSignInCode(
  ctx: ContextWith<'signIns' | 'memberships'> & Pick<OAuthContext, 'mailer' | 'signInCodeKey'>,
  post: PagePost & { readonly email: string; readonly sourceIp: string },
): Promise<CodeRequestOutcome> {
  const { request } = await pendingAuthorization(ctx, post.requestId);
  const browser = await postedSession(ctx, post);
  const email = normalizeEmail(post.email);
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 255)
    return { notice: 'invalid_email', mailing: null };
  const now = ctx.clock.now();
  if (
    !(await withinCodeRequestLimits(ctx, { email, sourceIp: post.sourceIp, session: browser.session, now }))
  ) {
    return { notice: 'rate_limited', mailing: null };
  }

  const [key, memberships] = await Promise.all([
    ctx.signInCodeKey(),
    ctx.repos.memberships.listByUser(email),
    ctx.repos.signIns.putSession({ ...browser.session, pendingEmail: email }),
  ]);
  const code = oneTimeCode();
  await ctx.repos.signIns.putSignInCode({
    requestId: request.requestId,
    email,
    codeHash: signInCodeHash(key, { requestId: request.requestId, email, code }),
    attempts: 0,
    expiresAt: secondsAfter(now, oauthLifetimes.signInCode),
  });
  const mailing =
    memberships.length === 0
      ? null
      : ctx.mailer.send({
          to: email,
          subject: `Your sign-in code: ${code}`,
          text: [
            `Your one-time sign-in code is ${code}.`,
            '',
            `It is valid for ${oauthLifetimes.signInCode / 60} minutes. If you did not ask for it, ignore this message: nobody can sign in without the code.`,
          ].join('\n'),
        });
  return { notice: 'code_sent', mailing };
}

/**
 * Counts the request against each of its limits (docs/oauth.md, "Limits"), stopping at the first
 * one reached: by network address, by session, by network address and e-mail address together,
 * then by e-mail address (the last, so that requests another limit refused never use it up).
 */
async function withinCodeRequestLimits(
  ctx: ContextWith<'signIns'>,
  asked: {
    readonly email: string;
    readonly sourceIp: string;
    readonly session: SignInSession;
    readonly now: Date;
  },
): Promise<boolean> {
  const window = fixedWindow(asked.now, codeRequestLimits.windowSeconds);
  const ip = secretHash(asked.sourceIp);
  const address = secretHash(asked.email);
  const buckets: [string, number][] = [
    [`ip:${ip}:${window.index}`, codeRequestLimits.perSourceIp],
    [`session:${asked.session.sessionHash}:${window.index}`, codeRequestLimits.perSession],
    [
      `ip-email:${secretHash(`${asked.sourceIp}\n${asked.email}`)}:${window.index}`,
      codeRequestLimits.perSourceIpAndAddress,
    ],
    [`email:${address}:${window.index}`, codeRequestLimits.perAddress],
  ];
  for (const [bucket, limit] of buckets) {
    if (!(await ctx.repos.signIns.countRateEvent(bucket, limit, window.endsAt))) return false;
  }
  return true;
}

/** Forgets the address awaiting a code, so that the page asks for an address again. */
export async function restartSignIn(ctx: ContextWith<'signIns'>, post: PagePost): Promise<void> {
  await pendingAuthorization(ctx, post.requestId);
  const browser = await postedSession(ctx, post);
  await ctx.repos.signIns.putSession({ ...browser.session, email: null, pendingEmail: null });
}

/**
 * Checks the one-time code (5 attempts, 10 minutes). Every check also counts against the address's
 * day (docs/oauth.md, "Limits"): past the free ones, the next check opens only after a delay that
 * doubles, and the day's checks are capped, so no one guesses on and on with new codes. On success
 * the user is signed in, in a new session (a new cookie: a session id seen before sign-in never
 * carries a signed-in user).
 */
export async function verifySignInCode(
  ctx: ContextWith<'signIns'> & Pick<OAuthContext, 'signInCodeKey'>,
  post: PagePost & { readonly code: string; readonly sourceIp: string },
): Promise<{ readonly notice: SignInNotice } | { readonly signedIn: BrowserSession }> {
  await pendingAuthorization(ctx, post.requestId);
  const browser = await postedSession(ctx, post);
  const email = browser.session.pendingEmail;
  const stored = await ctx.repos.signIns.getSignInCode(post.requestId);
  if (email === null || stored === null || stored.email !== email) return { notice: 'wrong_code' };
  const now = ctx.clock.now();
  if (hasExpired(stored.expiresAt, now)) return { notice: 'code_expired' };
  const day = fixedWindow(now, codeCheckLimits.windowSeconds);
  const counted = await withinCodeCheckLimits(ctx, {
    email,
    sourceIp: post.sourceIp,
    session: browser.session,
    freshCode: stored.attempts === 0,
    now,
    day,
  });
  // Capped for the day or not open yet: either way, wait (the code is not even compared).
  if (counted === null) return { notice: 'try_later' };
  if (!(await ctx.repos.signIns.countSignInAttempt(post.requestId, signInCodeAttempts))) {
    return { notice: 'too_many_attempts' };
  }
  const key = await ctx.signInCodeKey();
  if (
    !matchesSignInCodeHash(key, { requestId: post.requestId, email, code: post.code.trim() }, stored.codeHash)
  ) {
    return { notice: 'wrong_code' };
  }

  // Only wrong codes use up the day's checks.
  for (const bucket of counted) await ctx.repos.signIns.refundPacedEvent(bucket);
  await ctx.repos.signIns.deleteSignInCode(post.requestId);
  await ctx.repos.signIns.deleteSession(browser.session.sessionHash);
  return { signedIn: await createSession(ctx, { email, pendingEmail: null }) };
}

/**
 * The user's answer. Allow: a code bound to the client, the redirect URI, the PKCE challenge,
 * the user and the chosen org (where they must be a member), single-use and valid 60 s. Deny:
 * `access_denied`. Either way the pending request is spent, and the answer is the redirect.
 */
export async function decideAuthorization(
  ctx: ContextWith<'signIns' | 'memberships'> & Pick<OAuthContext, 'issuer'>,
  post: PagePost & { readonly decision: 'allow' | 'deny'; readonly orgId: string | undefined },
): Promise<{ readonly location: string } | { readonly notice: SignInNotice }> {
  const { request } = await pendingAuthorization(ctx, post.requestId);
  const browser = await postedSession(ctx, post);
  const email = browser.session.email;
  if (email === null) throw new OAuthError('invalid_request', 'Sign in first.');

  let params: Record<string, string | null>;
  if (post.decision === 'deny') {
    params = {
      error: 'access_denied',
      error_description: 'The user denied the request.',
      state: request.state,
    };
  } else {
    const membership = post.orgId === undefined ? null : await ctx.repos.memberships.get(post.orgId, email);
    if (membership === null) return { notice: 'not_a_member' };
    const code = randomSecret();
    await ctx.repos.signIns.putCode({
      codeHash: secretHash(code),
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      email,
      orgId: membership.orgId,
      scopes: request.scopes,
      resource: request.resource,
      familyId: ctx.ids.uuid(),
      expiresAt: secondsAfter(ctx.clock.now(), oauthLifetimes.authorizationCode),
      usedAt: null,
    });
    params = { code, state: request.state };
  }
  // Spent once: a second tab's answer to the same request finds it gone.
  if (!(await ctx.repos.signIns.takeRequest(request.requestId))) {
    throw new OAuthError('invalid_request', 'This sign-in request was completed already.');
  }
  return { location: authorizationResponse(ctx.issuer, request.redirectUri, params) };
}
