import { describe, expect, it } from 'vitest';
import { sessionCookie, sessionTokenOf } from '../../../functions/oauth-sign-in/session-cookie';

const token = 'AbCdEfGhIjKlMnOpQrStUv_-0123456789';

describe('the sign-in session cookie', () => {
  it('is a __Host- cookie, Secure, over https, and a plain HttpOnly one on a loopback http issuer', () => {
    // Act
    const overHttps = sessionCookie('https://api.example.com', token, 600);
    const local = sessionCookie('http://127.0.0.1:3000', token, 600);

    // Assess
    expect(overHttps).toBe(
      `__Host-oauth_session=${token}; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax`,
    );
    expect(local).toBe(`oauth_session=${token}; Max-Age=600; Path=/; HttpOnly; SameSite=Lax`);
  });

  it("reads the token from the issuer's cookie among others, the first one if sent twice", () => {
    // Act
    const local = sessionTokenOf(
      { cookie: `theme=dark; oauth_session=${token}; oauth_session=other` },
      'http://127.0.0.1',
    );
    const overHttps = sessionTokenOf({ cookie: `__Host-oauth_session=${token}` }, 'https://api.example.com');

    // Assess
    expect(local).toBe(token);
    expect(overHttps).toBe(token);
  });

  it('finds no session without the cookie, under the other name, or with a value no session token has', () => {
    // Act
    const found = [
      sessionTokenOf({}, 'http://127.0.0.1'),
      // The plain name over https: only the __Host- one counts there.
      sessionTokenOf({ cookie: `oauth_session=${token}` }, 'https://api.example.com'),
      // Too short (19 characters), and a character tokens never hold.
      sessionTokenOf({ cookie: 'oauth_session=abcdefghijklmnopqrs' }, 'http://127.0.0.1'),
      sessionTokenOf({ cookie: `oauth_session=${token.slice(0, 25)}.x` }, 'http://127.0.0.1'),
    ];

    // Assess
    expect(found).toEqual([null, null, null, null]);
  });
});
