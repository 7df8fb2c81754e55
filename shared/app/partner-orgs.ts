import { NotFoundError } from '../domain/errors';
import type { Membership } from '../domain/orgs';
import type { Principal } from '../domain/principal';
import type { MemberInvite } from './members';
import { addMembers } from './members';
import { loadPartnerOrgFor } from './org-access';
import { type NewOrganization, type RegisteredOrganization, registerOrganization } from './organizations';
import type { ContextWith } from './ports';

/** A customer org as a partner registers it (spec #14, either body shape). */
export type ChildOrgRegistration = Omit<NewOrganization, 'parentOrgId' | 'isPartner'>;

/** Spec #14: a partner registers a customer org, its users, and its link to the partner. */
export async function registerChildOrg(
  ctx: ContextWith<'memberships' | 'orgUpdates' | 'orgs' | 'users'>,
  principal: Principal,
  partnerOrgId: string,
  registration: ChildOrgRegistration,
): Promise<RegisteredOrganization> {
  const partner = await loadPartnerOrgFor(ctx, principal, partnerOrgId);
  return registerOrganization(ctx, { ...registration, parentOrgId: partner.id, isPartner: false });
}

/** Spec #15: a partner invites users to one of its child orgs. */
export async function inviteChildOrgUsers(
  ctx: ContextWith<'memberships' | 'orgs' | 'users'>,
  principal: Principal,
  partnerOrgId: string,
  childOrgId: string,
  invites: readonly MemberInvite[],
): Promise<Membership[]> {
  const partner = await loadPartnerOrgFor(ctx, principal, partnerOrgId);
  const child = await ctx.repos.orgs.placement(childOrgId);
  if (!child || child.parentOrgId !== partner.id)
    throw new NotFoundError(`Organization ${childOrgId} not found`);
  return addMembers(ctx, child.id, invites);
}
