import type { AzureConsent } from '../../shared/domain/onboarding/onboarding-record';
import { tenantConsentRoles } from '../../shared/domain/onboarding/tenant-admin-roles';

/**
 * A consent as the callback records it once the tenant's administrator proved it by signing in
 * (docs/onboarding.md, Azure consent): for tests of what reads a consent (the verifier, the sync),
 * not of how it is proven.
 */
export function provenConsent(tenantId: string, at = '2026-11-28T10:00:00.000Z'): AzureConsent {
  return {
    granted: true,
    error: null,
    at,
    signedInBy: {
      tenantId,
      objectId: '6f0b2a1c-9e8d-4c7b-a6f5-e4d3c2b1a090',
      roleId: tenantConsentRoles[0].id,
      tokenId: 'AAAAAAAAAAAAAAAAAAAAAA',
    },
  };
}
