import { type Membership, type MembershipOrigin, type MembershipRole, normalizeEmail } from '../domain/orgs';
import type { ContextWith } from './ports';

export interface MemberInvite {
  readonly email: string;
  readonly role: MembershipRole;
  readonly name: string | null;
}

/**
 * Makes each invited person a member of the org with the given role: creates the user if new,
 * leaves a membership with the same role as it is, and changes the role of one with another.
 * A partner's invites (#14, #15) pass `addedBy`: a membership it creates records the partner and
 * when, for the consent page (docs/oauth.md, Consent); an existing one keeps where it came from.
 * Each step is an idempotent single-item write, so a retry after a failure completes the list.
 */
export async function addMembers(
  ctx: ContextWith<'memberships' | 'users'>,
  orgId: string,
  invites: readonly MemberInvite[],
  addedBy: Pick<MembershipOrigin, 'partnerOrgId'> | null = null,
): Promise<Membership[]> {
  const now = ctx.clock.now().toISOString();
  const memberships: Membership[] = [];
  for (const invite of invites) {
    const email = normalizeEmail(invite.email);
    await ctx.repos.users.ensure({ email, name: invite.name, createdAt: now });
    const existing = await ctx.repos.memberships.get(orgId, email);
    if (existing?.role === invite.role) {
      memberships.push(existing);
      continue;
    }
    const origin = existing
      ? existing.addedBy
      : addedBy
        ? { partnerOrgId: addedBy.partnerOrgId, at: now }
        : undefined;
    const membership: Membership = {
      orgId,
      email,
      role: invite.role,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      ...(origin ? { addedBy: origin } : {}),
    };
    await ctx.repos.memberships.put(membership);
    memberships.push(membership);
  }
  return memberships;
}
