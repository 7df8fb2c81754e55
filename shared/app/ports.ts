import type { ApiKeyRecord } from '../auth/api-keys';
import type { ChildOrgLink, MarketplaceOfferLinks, Membership, Organization, User } from '../domain/orgs';

/**
 * Ports: what use cases need from the outside world. Adapters implement them (shared/store on
 * DynamoDB; shared/runtime wires them). Every write is a single-item conditional write, so a
 * sequence interrupted half-way is completed by a retry (dynalite has no transactions).
 */

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new random (version 4) UUID. */
  uuid(): string;
}

/**
 * The outcome of claiming a child org name. When another org holds it, `sameRegistration` tells
 * whether the holder claimed it for a registration of the same content (this one is a retry of it).
 */
export type NameClaim =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly orgId: string; readonly sameRegistration: boolean };

export interface OrgRepository {
  get(orgId: string): Promise<Organization | null>;
  /** Creates the org; a ConflictError when an org with this id exists already. */
  create(org: Organization): Promise<void>;
  /**
   * Sets the given offer links (null clears one; links not given are kept) in one atomic write,
   * so concurrent updates of different links never undo each other. Answers the org as stored
   * after the write; a NotFoundError for an unknown org.
   */
  setOfferLinks(orgId: string, links: Partial<MarketplaceOfferLinks>, at: string): Promise<Organization>;
  /** Every org, for operators (admin CLI); ordered by name. */
  list(): Promise<Organization[]>;
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
  getChildLink(partnerOrgId: string, childOrgId: string): Promise<ChildOrgLink | null>;
  listChildLinks(partnerOrgId: string): Promise<ChildOrgLink[]>;
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

/** Every repository a use case may reach, as one object (built by shared/store's createStore). */
export interface Repositories {
  readonly orgs: OrgRepository;
  readonly users: UserRepository;
  readonly memberships: MembershipRepository;
  readonly apiKeys: ApiKeyRepository;
}

/** What every use case is given by the composition root. */
export interface AppContext {
  readonly repos: Repositories;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}
