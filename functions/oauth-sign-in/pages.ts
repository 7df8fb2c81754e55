import type { GrantableOrg, SignInNotice, SignInPage } from '../../shared/app/oauth/sign-in';
import { mixedScripts } from '../../shared/domain/display-names';
import { redirectHost } from '../../shared/domain/oauth/redirect-uris';
import { scopeDescriptions } from '../../shared/domain/scopes';
import { escapeHtml, htmlPage } from '../../shared/http/html';

/**
 * The sign-in and consent page (docs/oauth.md): one page per step of a pending authorization, plain
 * HTML forms that work without JavaScript, labelled fields, the client named as registered
 * (marked unverified when anyone could have registered it).
 */

const noticeText: Readonly<Record<SignInNotice, string>> = {
  code_sent:
    'If this address belongs to an account, a 6-digit code is on its way. It is valid for 10 minutes.',
  wrong_code: 'That code is not right. Check the latest mail and try again.',
  code_expired: 'That code has expired. Ask for a new one.',
  too_many_attempts: 'Too many wrong codes. Ask for a new one.',
  rate_limited: 'Too many codes were asked for. Wait a while, then try again.',
  try_later: 'Too many wrong codes for this address today. Wait a little, then try again.',
  not_a_member: 'Choose one of your organizations.',
  invalid_email: 'Enter an e-mail address.',
};

export function isSignInNotice(value: string | undefined): value is SignInNotice {
  return value !== undefined && Object.hasOwn(noticeText, value);
}

export function signInPageHtml(issuer: string, page: SignInPage, notice: SignInNotice | null): string {
  const { request, client } = page.pending;
  const hidden = `<input type="hidden" name="request" value="${escapeHtml(request.requestId)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(page.browser.session.csrfToken)}">`;
  const clientName =
    client.registration === 'dynamic'
      ? `${escapeHtml(client.name)} <span class="unverified">(unverified: the application named itself)</span>`
      : escapeHtml(client.name);
  const scripts = mixedScripts(client.name);
  const imitation =
    scripts.length === 0
      ? ''
      : `<p class="notice" role="alert">Warning: this name mixes ${escapeHtml(scripts.join(' and '))} letters in one word, so it may imitate the name of another application.</p>
`;
  const about = `<p><strong>${clientName}</strong> asks for access to your account. After you answer, you go back to <strong>${escapeHtml(redirectHost(request.redirectUri))}</strong>.</p>
${imitation}
<p>It asks to:</p>
<ul>${request.scopes.map((scope) => `<li>${escapeHtml(scopeDescriptions[scope])}</li>`).join('')}</ul>`;
  const noticeHtml =
    notice === null ? '' : `<p class="notice" role="status">${escapeHtml(noticeText[notice])}</p>`;
  const action = (path: string) => escapeHtml(`${issuer}${path}`);

  if (page.step === 'email') {
    return htmlPage(
      'Sign in',
      `<h1>Sign in</h1>
${about}
${noticeHtml}
<form method="post" action="${action('/oauth/sign-in/email')}">
${hidden}
<label for="email">Your e-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="255" autofocus>
<button type="submit">Send me a sign-in code</button>
</form>`,
    );
  }
  if (page.step === 'code') {
    return htmlPage(
      'Enter your sign-in code',
      `<h1>Enter your sign-in code</h1>
${about}
${noticeHtml}
<p>We sent a code to <strong>${escapeHtml(page.browser.session.pendingEmail ?? '')}</strong> if it belongs to an account.</p>
<form method="post" action="${action('/oauth/sign-in/code')}">
${hidden}
<label for="code">6-digit code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<button type="submit">Sign in</button>
</form>
<form method="post" action="${action('/oauth/sign-in/restart')}">
${hidden}
<button type="submit">Use another address</button>
</form>`,
    );
  }
  const orgs = page.orgs;
  const addedNotices = orgs
    .filter((org) => org.addedBy !== null)
    .map((org) => `<li>${escapeHtml(org.name)}: ${addedByText(org)}</li>`);
  const addedHtml =
    addedNotices.length === 0
      ? ''
      : `<div class="notice" role="note"><p>Added to your account by a partner, not by you:</p>
<ul>${addedNotices.join('')}</ul>
<p>If you did not expect to belong to such an organization, do not allow access to it.</p></div>`;
  const orgChoice =
    orgs.length === 0
      ? '<p class="notice">Your account belongs to no organization: there is nothing to allow.</p>'
      : orgs.length === 1
        ? `<input type="hidden" name="org_id" value="${escapeHtml(orgs[0]?.orgId ?? '')}">
<p>Organization: <strong>${escapeHtml(orgs[0]?.name ?? '')}</strong></p>`
        : `<label for="org_id">Organization</label>
<select id="org_id" name="org_id" required>
${orgs.map((org) => `<option value="${escapeHtml(org.orgId)}">${escapeHtml(org.name)} (${escapeHtml(org.role)})${org.addedBy ? ` (${addedByText(org)})` : ''}</option>`).join('\n')}
</select>`;
  return htmlPage(
    'Allow access?',
    `<h1>Allow access?</h1>
<p>Signed in as <strong>${escapeHtml(page.browser.session.email ?? '')}</strong>.</p>
${about}
${noticeHtml}
<form method="post" action="${action('/oauth/consent')}">
${hidden}
${orgChoice}
${addedHtml}
${orgs.length > 0 ? '<button type="submit" name="decision" value="allow">Allow</button>' : ''}
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>`,
  );
}

/** "added by <partner> on <day> at <time> UTC": who made the user a member of a partner's customer org. */
function addedByText(org: GrantableOrg): string {
  const at = org.addedBy?.at ?? '';
  return `added by ${escapeHtml(org.addedBy?.partnerName ?? '')} on ${escapeHtml(at.slice(0, 10))} at ${escapeHtml(at.slice(11, 16))} UTC`;
}
