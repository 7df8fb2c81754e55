import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { s256Challenge, verifiesChallenge } from '../../../../shared/domain/oauth/pkce';
import { formatScope, parseScope } from '../../../../shared/domain/oauth/scopes';

describe('PKCE S256', () => {
  const verifier = oauth.generateRandomCodeVerifier();

  it('computes the challenge a real client computes', async () => {
    expect(s256Challenge(verifier)).toBe(await oauth.calculatePKCECodeChallenge(verifier));
  });

  it('accepts the verifier of the challenge and refuses any other', () => {
    // Prepare: another verifier, one character changed (to one it is not: the verifier is random)
    const challenge = s256Challenge(verifier);
    const other = `${verifier.slice(0, -1)}${verifier.endsWith('A') ? 'B' : 'A'}`;

    // Assess
    expect(verifiesChallenge(verifier, challenge)).toBe(true);
    expect(verifiesChallenge(other, challenge)).toBe(false);
  });

  it('refuses a verifier sent as its own challenge (plain) and malformed verifiers', () => {
    const plain = 'a'.repeat(43);
    expect(verifiesChallenge(plain, plain)).toBe(false);
    expect(verifiesChallenge('short', s256Challenge('short'))).toBe(false);
  });
});

describe('parseScope', () => {
  it('keeps known scopes once, in the service order', () => {
    expect(parseScope('plans:apply plans:read plans:read')).toEqual(['plans:read', 'plans:apply']);
    expect(formatScope(['plans:read', 'org:write'])).toBe('plans:read org:write');
  });

  it('grants reading when no scope is asked for, and refuses unknown scopes', () => {
    expect(parseScope(undefined)).toEqual(['plans:read']);
    expect(parseScope('')).toEqual(['plans:read']);
    expect(parseScope('plans:read admin')).toBeNull();
  });
});
