import type { ApiKeyRecord } from '../../auth/api-keys';
import type { CommitmentSharing } from '../../domain/engine';
import type {
  ChildOrgLink,
  MarketplaceOfferLinks,
  Membership,
  Organization,
  OrgPlacement,
  User,
} from '../../domain/orgs';

/** Ports of orgs, their users and memberships, and the credentials that name them (API keys, token families). */

/**
 * The outcome of claiming a child org name. When another org holds it, `sameRegistration` tells
 * whether the holder claimed it for a registration of the same content (this one is a retry of it).
 */
export type NameClaim =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly orgId: string; readonly sameRegistration: boolean };

export interface OrgRepository {
  get(orgId: string): Promise<Organization | null>;
  /** The org's placement (id, parent, partner flag): what access decisions read. */
  placement(orgId: string): Promise<OrgPlacement | null>;
  /** Every org, for operators (admin CLI); ordered by name. */
  list(): Promise<Organization[]>;
  getChildLink(partnerOrgId: string, childOrgId: string): Promise<ChildOrgLink | null>;
  listChildLinks(partnerOrgId: string): Promise<ChildOrgLink[]>;
}

/**
 * Creating orgs, linking children to partners and changing an org's settings: apart from
 * OrgRepository (what every access check and read needs), so that a function that only reads
 * orgs bundles none of it.
 */
export interface OrgUpdateRepository {
  /** Creates the org; a ConflictError when an org with this id exists already. */
  create(org: Organization): Promise<void>;
  /**
   * Sets the given offer links (null clears one; links not given are kept) in one atomic write,
   * so concurrent updates of different links never undo each other. Answers the org as stored
   * after the write; a NotFoundError for an unknown org.
   */
  setOfferLinks(orgId: string, links: Partial<MarketplaceOfferLinks>, at: string): Promise<Organization>;
  /** Sets whose usage the org's commitments cover; answers the org as stored; NotFoundError if unknown. */
  setCommitmentSharing(orgId: string, sharing: CommitmentSharing, at: string): Promise<Organization>;
  /** Sets the org's renewal horizon in days; answers the org as stored; NotFoundError if unknown. */
  setRenewalHorizonDays(orgId: string, days: number, at: string): Promise<Organization>;
  /** Sets the execution policy's upfront cap (null: none); answers the org as stored; NotFoundError if unknown. */
  setMaxUpfrontCost(orgId: string, maxUpfrontCost: number | null, at: string): Promise<Organization>;
  /**
   * Reserves `name` (normalized) for `childOrgId` among the partner's children, recording
   * `registration` (a digest of what is registered). When another org holds it already, answers
   * that org's id and whether its claim recorded the same registration.
   */
  claimChildName(
    partnerOrgId: string,
    normalizedName: string,
    childOrgId: string,
    registration: string,
  ): Promise<NameClaim>;
  putChildLink(link: ChildOrgLink): Promise<void>;
}

export interface UserRepository {
  get(email: string): Promise<User | null>;
  /** Creates the user unless one with this e-mail exists; answers the stored user either way. */
  ensure(user: User): Promise<User>;
}

export interface MembershipRepository {
  get(orgId: string, email: string): Promise<Membership | null>;
  /** Creates or replaces the membership. */
  put(membership: Membership): Promise<void>;
  listByOrg(orgId: string): Promise<Membership[]>;
  listByUser(email: string): Promise<Membership[]>;
}

export interface ApiKeyRepository {
  /** Creates the key record; a ConflictError when the key id exists already. */
  create(record: ApiKeyRecord): Promise<void>;
  get(keyId: string): Promise<ApiKeyRecord | null>;
  /** Marks the key revoked; a NotFoundError for an unknown key id. Revoking twice keeps the first time. */
  revoke(keyId: string, at: string): Promise<ApiKeyRecord>;
  /** Records a successful use (best effort: callers do not wait on its failure). */
  markUsed(keyId: string, at: string): Promise<void>;
}

/**
 * Whether a refresh-token family was revoked (a reused refresh token, a replayed code, revocation
 * by the user or an operator): the authorizer refuses access tokens of a revoked family, though
 * they are unexpired and well signed. The authorization server writes the family item
 * (docs/data-model.md, `oauth_family`) before it issues any token of it.
 */
export interface TokenFamilyRevocations {
  /** True when the family is revoked, and when no such family is stored (never issued, or gone). */
  isRevoked(familyId: string): Promise<boolean>;
}
