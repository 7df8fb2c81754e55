/**
 * Organizations, users and memberships: the tenants of the service and who belongs to them.
 * A partner org owns child orgs (its customers); a user belongs to an org through a membership.
 */

import type { CloudProvider } from './cloud-providers';
import { displayNameKey } from './display-names';
import type { CommitmentSharing } from './engine/shapes/model';

export const membershipRoles = ['user', 'admin', 'support', 'cloud_rep', 'restricted_user'] as const;
export type MembershipRole = (typeof membershipRoles)[number];

export interface Address {
  readonly line1: string;
  readonly line2: string | null;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly country: string;
}

/** Marketplace offer links per cloud; https URLs, stored as given and never fetched. */
export type MarketplaceOfferLinks = Readonly<Record<CloudProvider, string | null>>;

export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly domain: string | null;
  readonly primaryAddress: Address | null;
  readonly offerLinks: MarketplaceOfferLinks;
  /** The partner's own reference for this customer (spec: partner_subscription_id). */
  readonly partnerSubscriptionId: string | null;
  /** The partner org this org was registered by, if any. */
  readonly parentOrgId: string | null;
  /** Partner orgs may register and act on child orgs. */
  readonly isPartner: boolean;
  /**
   * Whose usage the org's commitments cover (docs/plan-engine.md, Sharing scope): every account of the org
   * (`organization`, the providers' default) or only the buying account's (`account`). Set by
   * operators (`admin set-org --sharing`); plans are computed with it.
   */
  readonly commitmentSharing: CommitmentSharing;
  /**
   * Days before its end in which a plan renews an owned commitment instead of counting it
   * (docs/plan-engine.md, Time is the plan's). Set by operators (`admin set-org
   * --renewal-horizon-days`); 30 unless set.
   */
  readonly renewalHorizonDays: number;
  /**
   * The execution policy's cap on what one plan's purchases may pay upfront in total (USD), set
   * by operators (`admin set-org --max-upfront-cost`); null: no cap. The purchase processor
   * refuses a line item of a plan over it (docs/purchases.md, guard rails).
   */
  readonly maxUpfrontCost: number | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Optimistic-locking counter, incremented by every write. */
  readonly version: number;
}

export interface User {
  /** Trimmed, lower-cased e-mail: the user's identity. */
  readonly email: string;
  readonly name: string | null;
  readonly createdAt: string;
}

export interface Membership {
  readonly orgId: string;
  readonly email: string;
  readonly role: MembershipRole;
  readonly createdAt: string;
  readonly updatedAt: string;
  /**
   * The partner org that made this person a member (#14, #15), and when; absent for members the
   * org's own admins or the operator added. The consent page shows it, so that nobody grants
   * access to an org they did not know they had joined (docs/oauth.md, Consent).
   */
  readonly addedBy?: MembershipOrigin;
}

/** Who added a membership: a partner org, at a time. */
export interface MembershipOrigin {
  readonly partnerOrgId: string;
  readonly at: string;
}

/**
 * Where an org stands: its id, the partner that registered it and whether it is a partner itself.
 * Fixed when the org is created (orgs are never re-parented), so it may be cached indefinitely;
 * access decisions need nothing else.
 */
export type OrgPlacement = Pick<Organization, 'id' | 'parentOrgId' | 'isPartner'>;

/** A partner's link to one of its child orgs. */
export interface ChildOrgLink {
  readonly partnerOrgId: string;
  readonly childOrgId: string;
  readonly childOrgName: string;
  readonly createdAt: string;
}

/** E-mail addresses are identities: compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Org names are unique per partner regardless of case, surrounding or repeated spaces, and
 * Unicode normalization (display-names.ts).
 */
export function normalizeOrgName(name: string): string {
  return displayNameKey(name);
}
