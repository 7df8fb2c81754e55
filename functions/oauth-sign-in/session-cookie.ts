import { parseCookie, type SetCookie, stringifySetCookie } from 'cookie';

/**
 * The sign-in pages' session cookie, read and written with `cookie`. Over https it is
 * `__Host-oauth_session` (Secure, Path=/, no Domain: only this host, only over TLS). Locally the
 * issuer is http on a loopback address, where a `__Host-` cookie cannot be set (it requires
 * Secure, and not every client sends Secure cookies over plain http), so there it is
 * `oauth_session` without Secure; loopback traffic never leaves the machine. HttpOnly and
 * SameSite=Lax either way: the forms are same-site posts, and Lax keeps the cookie off cross-site
 * posts.
 */
function cookieShape(issuer: string): Omit<SetCookie, 'value' | 'maxAge'> {
  return issuer.startsWith('https://')
    ? { name: '__Host-oauth_session', path: '/', httpOnly: true, secure: true, sameSite: 'lax' }
    : { name: 'oauth_session', path: '/', httpOnly: true, sameSite: 'lax' };
}

/** A session token as the sign-in function makes them; anything else in the cookie is no session. */
const sessionTokenPattern = /^[A-Za-z0-9_-]{20,100}$/;

/** The session token the request's `Cookie` header carries, or null. */
export function sessionTokenOf(headers: Readonly<Record<string, string>>, issuer: string): string | null {
  const value = parseCookie(headers.cookie ?? '')[cookieShape(issuer).name];
  return value !== undefined && sessionTokenPattern.test(value) ? value : null;
}

/** The `Set-Cookie` value for the session token, living as long as the session. */
export function sessionCookie(issuer: string, token: string, maxAgeSeconds: number): string {
  return stringifySetCookie({ ...cookieShape(issuer), value: token, maxAge: maxAgeSeconds });
}
