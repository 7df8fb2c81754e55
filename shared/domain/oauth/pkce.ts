import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * PKCE (RFC 7636) with S256 only (RFC 9700 §2.1.1: `plain` gives no protection against a
 * leaked authorization request). A pure function of its inputs, so it lives in the domain.
 */

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const verifierText = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL of a SHA-256 digest: 43 characters. */
const challengeText = /^[A-Za-z0-9\-_]{43}$/;

export function isS256Challenge(challenge: string): boolean {
  return challengeText.test(challenge);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether `verifier` answers `challenge`: compared in constant time. */
export function verifiesChallenge(verifier: string, challenge: string): boolean {
  if (!verifierText.test(verifier) || !isS256Challenge(challenge)) return false;
  return timingSafeEqual(Buffer.from(s256Challenge(verifier)), Buffer.from(challenge));
}
