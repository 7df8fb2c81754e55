/**
 * The sign-in pages' session cookie. Over https it is `__Host-oauth_session` (Secure, Path=/, no
 * Domain: only this host, only over TLS). Locally the issuer is http on a loopback address, where
 * a `__Host-` cookie cannot be set (it requires Secure, and not every client sends Secure cookies
 * over plain http), so there it is `oauth_session` without Secure; loopback traffic never leaves
 * the machine. HttpOnly and SameSite=Lax either way: the forms are same-site posts, and Lax keeps
 * the cookie off cross-site posts.
 */
interface CookieShape {
  readonly name: string;
  readonly attributes: string;
}

function cookieShape(issuer: string): CookieShape {
  return issuer.startsWith('https://')
    ? { name: '__Host-oauth_session', attributes: 'Path=/; HttpOnly; Secure; SameSite=Lax' }
    : { name: 'oauth_session', attributes: 'Path=/; HttpOnly; SameSite=Lax' };
}

/** The session token the request's `Cookie` header carries, or null. */
export function sessionTokenOf(headers: Readonly<Record<string, string>>, issuer: string): string | null {
  const { name } = cookieShape(issuer);
  for (const part of (headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) {
      const value = part.slice(separator + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** The `Set-Cookie` value for the session token, living as long as the session. */
export function sessionCookie(issuer: string, token: string, maxAgeSeconds: number): string {
  const { name, attributes } = cookieShape(issuer);
  return `${name}=${token}; ${attributes}; Max-Age=${maxAgeSeconds}`;
}
