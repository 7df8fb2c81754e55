import { inertText } from '../inert-text';

/**
 * What the consent callback keeps of the identity platform's answer (docs/onboarding.md, Azure
 * consent). The callback is public and its parameters are whatever the caller typed, so what is
 * stored is bounded and inert: an OAuth error code as RFC 6749 §4.1.2.1 shapes it, and a
 * description of printable ASCII only, every other character written as a `\u{...}` escape, cut
 * to a fixed length. Pages and checklists that show it escape it again for their own medium.
 */

/** The longest description kept, in characters, escapes included. */
export const maxConsentErrorDescription = 300;

const errorCode = /^[A-Za-z0-9_.-]{1,64}$/;

/** `error: description` as the record keeps it; an error code of another shape becomes `invalid_error`. */
export function storedConsentError(error: string | undefined, description: string | undefined): string {
  const code = error === undefined ? 'consent_not_granted' : errorCode.test(error) ? error : 'invalid_error';
  if (!description) return code;
  return `${code}: ${inertText(description, maxConsentErrorDescription)}`;
}

const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a tenant is named by its id (a GUID) rather than by one of its domains. */
export function isTenantGuid(tenant: string): boolean {
  return guid.test(tenant);
}

/**
 * Whether the tenant the identity platform names is the one the link was made for. A grant names
 * its tenant; a refusal may not. Tenant ids compare case-insensitively. A link made for a domain
 * name (`contoso.onmicrosoft.com`) may come back with the tenant's GUID, which the platform
 * answers in place of the name: only a GUID is accepted for it.
 */
export function sameTenant(returned: string | undefined, expected: string, granted: boolean): boolean {
  if (returned === undefined) return !granted;
  if (returned.toLowerCase() === expected.toLowerCase()) return true;
  return !guid.test(expected) && guid.test(returned);
}
