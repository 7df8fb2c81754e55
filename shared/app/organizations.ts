import { createHash } from 'node:crypto';
import { DEFAULT_RENEWAL_HORIZON_DAYS } from '../domain/engine/shapes/plan-time';
import { ConflictError } from '../domain/errors';
import {
  type Address,
  type MarketplaceOfferLinks,
  type Membership,
  normalizeEmail,
  normalizeOrgName,
  type Organization,
} from '../domain/orgs';
import { addMembers, type MemberInvite } from './members';
import type { ContextWith } from './ports';

export interface NewOrganization {
  readonly name: string;
  readonly parentOrgId: string | null;
  readonly isPartner: boolean;
  readonly partnerSubscriptionId: string | null;
  readonly domain: string | null;
  readonly primaryAddress: Address | null;
  readonly offerLinks: Partial<MarketplaceOfferLinks>;
  readonly members: readonly MemberInvite[];
}

export interface RegisteredOrganization {
  readonly org: Organization;
  readonly memberships: readonly Membership[];
}

/**
 * Creates an org with its members and, for a child org, its partner's link and name claim.
 *
 * Without transactions, the writes are ordered so that a failure half-way is completed by a
 * retry: the name claim comes first (it decides the org id), the org item last (its presence
 * means the registration is complete). A claim whose org item is missing belongs to an
 * interrupted registration, which this one resumes under the claimed id.
 */
export async function registerOrganization(
  ctx: ContextWith<'memberships' | 'orgUpdates' | 'orgs' | 'users'>,
  spec: NewOrganization,
): Promise<RegisteredOrganization> {
  const now = ctx.clock.now().toISOString();
  const orgId = spec.parentOrgId ? await claimChildName(ctx, spec.parentOrgId, spec) : ctx.ids.uuid();

  const memberships = await addMembers(
    ctx,
    orgId,
    spec.members,
    spec.parentOrgId ? { partnerOrgId: spec.parentOrgId } : null,
  );
  if (spec.parentOrgId) {
    await ctx.repos.orgUpdates.putChildLink({
      partnerOrgId: spec.parentOrgId,
      childOrgId: orgId,
      childOrgName: spec.name,
      createdAt: now,
    });
  }
  const org: Organization = {
    id: orgId,
    name: spec.name,
    domain: spec.domain,
    primaryAddress: spec.primaryAddress,
    offerLinks: {
      aws: spec.offerLinks.aws ?? null,
      azure: spec.offerLinks.azure ?? null,
      gcp: spec.offerLinks.gcp ?? null,
    },
    partnerSubscriptionId: spec.partnerSubscriptionId,
    parentOrgId: spec.parentOrgId,
    isPartner: spec.isPartner,
    commitmentSharing: 'organization',
    renewalHorizonDays: DEFAULT_RENEWAL_HORIZON_DAYS,
    maxUpfrontCost: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  try {
    await ctx.repos.orgUpdates.create(org);
  } catch (error) {
    if (error instanceof ConflictError) throw nameTaken(spec.name, orgId);
    throw error;
  }
  return { org, memberships };
}

/**
 * Reserves the name among the partner's children; answers the org id the registration uses.
 * A claim whose org item is missing belongs to an interrupted registration or to one still under
 * way: only a retry of the same registration resumes it, so that a concurrent registration of the
 * name never adds its members to the other one's org.
 */
async function claimChildName(
  ctx: ContextWith<'memberships' | 'orgUpdates' | 'orgs' | 'users'>,
  partnerOrgId: string,
  spec: NewOrganization,
): Promise<string> {
  const candidateId = ctx.ids.uuid();
  const claim = await ctx.repos.orgUpdates.claimChildName(
    partnerOrgId,
    normalizeOrgName(spec.name),
    candidateId,
    registrationDigest(spec),
  );
  if (claim.claimed) return candidateId;
  if (!claim.sameRegistration || (await ctx.repos.orgs.get(claim.orgId))) {
    throw nameTaken(spec.name, claim.orgId);
  }
  return claim.orgId;
}

/** Identifies a registration by everything it stores, in a fixed order: a retry has the same digest. */
function registrationDigest(spec: NewOrganization): string {
  const address = spec.primaryAddress;
  const { aws = null, azure = null, gcp = null } = spec.offerLinks;
  const content = [
    spec.name,
    spec.partnerSubscriptionId,
    spec.domain,
    address && [address.line1, address.line2, address.city, address.state, address.zip, address.country],
    [aws, azure, gcp],
    spec.members.map((member) => [normalizeEmail(member.email), member.role, member.name]),
  ];
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

function nameTaken(name: string, existingOrgId: string): ConflictError {
  return new ConflictError(`An organization named "${name}" is already registered as ${existingOrgId}`, {
    name: [`already registered as ${existingOrgId}`],
  });
}
