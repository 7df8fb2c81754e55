import type { MembershipRole, OrgPlacement } from './orgs';
import type { Principal } from './principal';

/**
 * Who may do what (docs/http.md). Reads are open to every member; applying a plan needs `admin` or
 * `user`; managing an org (invites, settings, purchases) needs `admin`. A partner acts on its own
 * org and on the orgs it registered, with every permission; never on anyone else's.
 */
export type Permission = 'read' | 'apply' | 'manage';

/**
 * `hidden`: the org is not the caller's to see; answer as if it did not exist (404), so that
 * ids of other tenants are never confirmed. `forbidden`: the caller sees the org but its role does
 * not allow the operation (403).
 */
export type AccessDecision = 'allowed' | 'hidden' | 'forbidden';

const rolePermissions: Readonly<Record<MembershipRole, readonly Permission[]>> = {
  admin: ['read', 'apply', 'manage'],
  user: ['read', 'apply'],
  support: ['read'],
  cloud_rep: ['read'],
  restricted_user: ['read'],
};

/** Decides access to `org` as stored: ownership comes from the stored parent, never from the request. */
export function decideOrgAccess(
  principal: Principal,
  org: OrgPlacement,
  permission: Permission,
): AccessDecision {
  if (principal.kind === 'partner') {
    const reachable = org.id === principal.orgId || org.parentOrgId === principal.orgId;
    return reachable ? 'allowed' : 'hidden';
  }
  if (org.id !== principal.orgId) return 'hidden';
  return rolePermissions[principal.role].includes(permission) ? 'allowed' : 'forbidden';
}

/** Whether a member with this role may apply plans (and so be named to purchase one, #13). */
export function roleMayApply(role: MembershipRole): boolean {
  return rolePermissions[role].includes('apply');
}

/**
 * Whether the caller's token allows `scope` (docs/http.md): a Bearer token may do only what its
 * scopes name; API-key callers carry every scope (`*`).
 */
export function hasScope(principal: Principal, scope: string): boolean {
  return principal.scopes.includes('*') || principal.scopes.includes(scope);
}
