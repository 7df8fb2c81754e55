import { ForbiddenError, NotFoundError } from '../domain/errors';
import type { OrgPlacement } from '../domain/orgs';
import { decideOrgAccess, type Permission } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import type { ContextWith } from './ports';

/**
 * Loads the placement of the org a request targets and checks the caller may act on it. Orgs the
 * caller cannot see answer 404 like unknown ones; orgs it sees without the needed role answer 403.
 */
export async function loadOrgFor(
  ctx: ContextWith<'orgs'>,
  principal: Principal,
  orgId: string,
  permission: Permission,
): Promise<OrgPlacement> {
  const org = await ctx.repos.orgs.placement(orgId);
  const decision = org ? decideOrgAccess(principal, org, permission) : 'hidden';
  if (!org || decision === 'hidden') throw new NotFoundError(`Organization ${orgId} not found`);
  if (decision === 'forbidden') {
    throw new ForbiddenError(`Your role may not perform this operation on organization ${orgId}`);
  }
  return org;
}

/** Loads a partner org the caller acts for; an org that is not a partner cannot have children. */
export async function loadPartnerOrgFor(
  ctx: ContextWith<'orgs'>,
  principal: Principal,
  partnerOrgId: string,
): Promise<OrgPlacement> {
  const partner = await loadOrgFor(ctx, principal, partnerOrgId, 'manage');
  if (!partner.isPartner || (principal.kind === 'partner' && principal.orgId !== partner.id)) {
    throw new ForbiddenError(`Organization ${partnerOrgId} is not a partner organization you act for`);
  }
  return partner;
}

/**
 * The org a partner-side request is about (onboarding #17-#20): the org itself by the usual rules
 * (a partner reaches its own org and its children; a member, its own org with `manage`), or a
 * child org for a member of its partner org, with the same role the partner org's own partner
 * operations need (#14, #15, #16: `admin`; 403 otherwise). A partner-org admin who may register a
 * child and invite its admin may so also onboard it (docs/http.md, Partner roles).
 */
export async function loadOrgAsPartnerFor(
  ctx: ContextWith<'orgs'>,
  principal: Principal,
  orgId: string,
): Promise<OrgPlacement> {
  if (principal.kind === 'user') {
    const org = await ctx.repos.orgs.placement(orgId);
    if (org?.parentOrgId && org.parentOrgId === principal.orgId) {
      await loadPartnerOrgFor(ctx, principal, org.parentOrgId);
      return org;
    }
  }
  return loadOrgFor(ctx, principal, orgId, 'manage');
}
