import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors';
import { type Membership, normalizeEmail } from '../domain/orgs';
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

/**
 * Spec #15: a partner invites users to one of its child orgs (docs/api-contract.md, #15 invites).
 * Refused before anything is written: a member of the partner org itself (a partner-org member is
 * not a member of its children, docs/http.md, Partner roles), and a change of an existing
 * member's role unless the caller is the partner's own API key, which acts for the child's admin;
 * a partner-org admin may add people and invite them again with the same role, nothing more.
 */
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
  await refuseOutOfLaneInvites(ctx, principal, { partnerOrgId: partner.id, childOrgId: child.id }, invites);
  return addMembers(ctx, child.id, invites, { partnerOrgId: partner.id });
}

async function refuseOutOfLaneInvites(
  ctx: ContextWith<'memberships'>,
  principal: Principal,
  orgs: { readonly partnerOrgId: string; readonly childOrgId: string },
  invites: readonly MemberInvite[],
): Promise<void> {
  const partnerMembers = new Set(
    (await ctx.repos.memberships.listByOrg(orgs.partnerOrgId)).map((member) => member.email),
  );
  const invalid: Record<string, string[]> = {};
  const forbidden: Record<string, string[]> = {};
  for (const [index, invite] of invites.entries()) {
    const email = normalizeEmail(invite.email);
    if (partnerMembers.has(email)) {
      invalid[`users.${index}.email`] = [
        'is a member of the partner organization; a partner-org member is not a member of its child organizations',
      ];
      continue;
    }
    if (principal.kind === 'partner') continue;
    const existing = await ctx.repos.memberships.get(orgs.childOrgId, email);
    if (existing !== null && existing.role !== invite.role) {
      forbidden[`users.${index}.role`] = [
        `would change an existing member's role (${existing.role}); only the partner's API key may change it`,
      ];
    }
  }
  if (Object.keys(invalid).length > 0) {
    throw new ValidationError(
      'Members of the partner organization cannot be invited to its child organizations',
      invalid,
    );
  }
  if (Object.keys(forbidden).length > 0) {
    throw new ForbiddenError(
      "Only the partner's API key may change the role of a child organization's member",
      forbidden,
    );
  }
}
