import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The `state` of an Azure admin-consent URL (#20): which onboarding the consent is for, signed
 * with the service's secret (HMAC-SHA256) and expiring, so that the public callback records a
 * consent only for the onboarding that asked for it, and only for a while. The `nonce` makes it
 * single use: the onboarding record holds the nonce of the one link it expects, and the callback
 * consumes it (docs/onboarding.md, Azure consent).
 */
export interface ConsentState {
  readonly orgId: string;
  readonly onboardingId: string;
  readonly tenantId: string;
  readonly subscriptionId: string;
  /** Random (128 bits, base64url): which link this is. */
  readonly nonce: string;
  /** Seconds since the epoch. */
  readonly expiresAt: number;
}

export const consentStateLifetimeSeconds = 3600;

export function signConsentState(state: ConsentState, secret: string): string {
  const payload = Buffer.from(
    JSON.stringify([
      state.orgId,
      state.onboardingId,
      state.tenantId,
      state.subscriptionId,
      state.nonce,
      state.expiresAt,
    ]),
  ).toString('base64url');
  return `${payload}.${mac(payload, secret)}`;
}

/** The state, when `token` is one this secret signed and it has not expired; null otherwise. */
export function verifyConsentState(token: string, secret: string, now: Date): ConsentState | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(fields) || fields.length !== 6) return null;
  const [orgId, onboardingId, tenantId, subscriptionId, nonce, expiresAt] = fields;
  if (
    typeof orgId !== 'string' ||
    typeof onboardingId !== 'string' ||
    typeof tenantId !== 'string' ||
    typeof subscriptionId !== 'string' ||
    typeof nonce !== 'string' ||
    typeof expiresAt !== 'number'
  ) {
    return null;
  }
  if (expiresAt * 1000 <= now.getTime()) return null;
  return { orgId, onboardingId, tenantId, subscriptionId, nonce, expiresAt };
}

/** A new link's nonce. */
export function newConsentNonce(): string {
  return randomBytes(16).toString('base64url');
}

function mac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(`azure-consent-state.${payload}`).digest('base64url');
}
