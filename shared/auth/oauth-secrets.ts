import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The authorization server's secrets: codes, refresh tokens, client secrets and session ids are
 * 256 random bits (base64url); only their SHA-256 is stored, so a read of the table discloses no
 * usable secret. One-time sign-in codes have a million values only, which a bare hash would not
 * hide: they are stored as an HMAC under the server's sign-in code key (`signInCodeHash`).
 */

export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Hex SHA-256: the storage key of a secret. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` hashes to `expectedHash`, compared in constant time. */
export function matchesSecretHash(secret: string, expectedHash: string): boolean {
  const actual = Buffer.from(secretHash(secret), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Two strings compared in constant time (CSRF tokens). */
export function equalSecrets(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A one-time sign-in code: 6 decimal digits, uniformly drawn. */
export function oneTimeCode(): string {
  return String(randomInt(1_000_000)).padStart(6, '0');
}

/**
 * The stored form of a one-time sign-in code: hex HMAC-SHA-256 under the server's key, bound to
 * the request and the address it was sent for, so that a read of the table alone cannot try the
 * million codes, nor move a code to another request.
 */
export function signInCodeHash(key: string, code: SignInCodeBinding): string {
  return createHmac('sha256', key)
    .update(`${code.requestId}\n${code.email}\n${code.code}`, 'utf8')
    .digest('hex');
}

/** What a sign-in code's HMAC covers. */
export interface SignInCodeBinding {
  readonly requestId: string;
  readonly email: string;
  readonly code: string;
}

/** Whether `code` is the one stored as `expectedHash`, compared in constant time. */
export function matchesSignInCodeHash(key: string, code: SignInCodeBinding, expectedHash: string): boolean {
  const actual = Buffer.from(signInCodeHash(key, code), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
