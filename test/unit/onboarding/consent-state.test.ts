import { describe, expect, it } from 'vitest';
import { type ConsentState, signConsentState, verifyConsentState } from '../../../shared/auth/consent-state';

const state: ConsentState = {
  orgId: 'org-1',
  onboardingId: 'onboarding-1',
  tenantId: 'contoso.onmicrosoft.com',
  subscriptionId: 'sub-1',
  nonce: 'nonce-1',
  expiresAt: 1_800_000_000,
};
const before = new Date((state.expiresAt - 60) * 1000);

describe('the consent state', () => {
  it('verifies what the same secret signed, before it expires', () => {
    // Act
    const verified = verifyConsentState(signConsentState(state, 'secret'), 'secret', before);

    // Assess
    expect(verified).toEqual(state);
  });

  it('refuses another secret, a changed payload, and an expired state', () => {
    // Prepare
    const token = signConsentState(state, 'secret');
    const [, signature] = token.split('.');
    const otherPayload = signConsentState({ ...state, orgId: 'org-2' }, 'secret').split('.')[0];

    // Act
    const results = [
      verifyConsentState(token, 'other secret', before),
      verifyConsentState(`${otherPayload}.${signature}`, 'secret', before),
      verifyConsentState(token, 'secret', new Date(state.expiresAt * 1000)),
      verifyConsentState('garbage', 'secret', before),
    ];

    // Assess
    expect(results).toEqual([null, null, null, null]);
  });
});
