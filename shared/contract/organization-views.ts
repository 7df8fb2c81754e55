import type { Membership, Organization } from '../domain/orgs';
import {
  type Membership as MembershipView,
  membership as membershipSchema,
  type PartnerSettings,
  partnerSettings,
  type RegisteredOrganization,
  registeredOrganization,
} from './partners';

/**
 * Domain objects as the contract shows them. Each view is parsed through its response schema,
 * so a field the contract does not name can never leak into a response.
 */

export function membershipView(membership: Membership): MembershipView {
  return membershipSchema.parse({ role: membership.role, username: membership.email });
}

export function registeredOrganizationView(
  org: Organization,
  memberships: readonly Membership[],
): RegisteredOrganization {
  return registeredOrganization.parse({
    id: org.id,
    child_org_id: org.id,
    name: org.name,
    memberships: memberships.map(membershipView),
    domain: org.domain,
    primary_address: org.primaryAddress,
    aws_marketplace_offer_link: org.offerLinks.aws,
    azure_marketplace_offer_link: org.offerLinks.azure,
    gcp_marketplace_offer_link: org.offerLinks.gcp,
  });
}

export function partnerSettingsView(org: Organization): PartnerSettings {
  return partnerSettings.parse({
    id: org.id,
    name: org.name,
    aws_marketplace_offer_link: org.offerLinks.aws,
    azure_marketplace_offer_link: org.offerLinks.azure,
    gcp_marketplace_offer_link: org.offerLinks.gcp,
  });
}
