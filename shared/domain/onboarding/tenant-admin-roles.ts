/**
 * The Microsoft Entra directory roles whose holders may grant tenant-wide admin consent to the
 * service's application (docs/onboarding.md, Azure consent): a consent counts only when the ID
 * token of the user who signed in carries one of them in `wids` (the directory-role template ids,
 * emitted when the application's manifest sets `groupMembershipClaims` to `DirectoryRole` or
 * `All`). The ids are the built-in roles' template ids, the same in every tenant.
 */
export const tenantConsentRoles = [
  // Consents to any permission of any API.
  { id: '62e90394-69f5-4237-9190-012177145e10', name: 'Global Administrator' },
  { id: 'e8611ab8-c189-46e8-94e1-60213ab1f814', name: 'Privileged Role Administrator' },
  // Consent to any permission except Microsoft Graph application permissions; the service asks
  // for Azure Resource Manager only, so these suffice.
  { id: '158c047a-c907-4556-b7ef-446551a6b5f7', name: 'Cloud Application Administrator' },
  { id: '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3', name: 'Application Administrator' },
] as const;

export type TenantConsentRole = (typeof tenantConsentRoles)[number];

/** The first role of `wids` that may grant tenant-wide consent; null when none may. */
export function consentingRoleOf(wids: readonly string[]): TenantConsentRole | null {
  const held = new Set(wids.map((id) => id.toLowerCase()));
  return tenantConsentRoles.find((role) => held.has(role.id)) ?? null;
}
