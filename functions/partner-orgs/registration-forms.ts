import type { MemberInvite } from '../../shared/app/members';
import type { ChildOrgRegistration } from '../../shared/app/partner-orgs';
import type {
  ChildOrgRegistrationBody,
  LegacyChildOrgRegistrationBody,
  RegisterChildOrgBody,
} from '../../shared/contract/child-org-registration';
import { type MembershipRole, normalizeEmail } from '../../shared/domain/orgs';

/**
 * #14's two request forms (shared/contract/child-org-registration.ts) read as the one registration
 * the use case takes: the handler's translation from the wire, beside it.
 */

/**
 * Role of the users the second form names: it carries no roles, and the customer's own people
 * must be able to run their org (invite colleagues, apply plans) without the partner.
 */
export const legacyRegistrationRole: MembershipRole = 'admin';

export function toChildOrgRegistration(body: RegisterChildOrgBody): ChildOrgRegistration {
  return 'org_name' in body ? fromLegacyForm(body) : fromReferenceForm(body);
}

function fromReferenceForm(body: ChildOrgRegistrationBody): ChildOrgRegistration {
  const address = body.primary_address;
  return {
    name: body.name,
    partnerSubscriptionId: body.partner_subscription_id ?? null,
    members: (body.users ?? []).map((user) => ({
      email: normalizeEmail(user.email),
      role: user.role,
      name: null,
    })),
    domain: body.domain ?? null,
    primaryAddress: address
      ? {
          line1: address.line1,
          line2: address.line2 ?? null,
          city: address.city,
          state: address.state,
          zip: address.zip,
          country: address.country,
        }
      : null,
    offerLinks: {
      aws: body.aws_marketplace_offer_link ?? null,
      azure: body.azure_marketplace_offer_link ?? null,
      gcp: body.gcp_marketplace_offer_link ?? null,
    },
  };
}

function fromLegacyForm(body: LegacyChildOrgRegistrationBody): ChildOrgRegistration {
  const members: MemberInvite[] = (body.user_emails ?? []).map((email, index) => ({
    email: normalizeEmail(email),
    role: legacyRegistrationRole,
    name: body.user_names?.[index] || null,
  }));
  const contact = body.org_email === undefined ? undefined : normalizeEmail(body.org_email);
  if (contact !== undefined && !members.some((member) => member.email === contact)) {
    members.unshift({ email: contact, role: legacyRegistrationRole, name: null });
  }
  return {
    name: body.org_name,
    partnerSubscriptionId: body.partner_subscription_id ?? null,
    members,
    domain: null,
    primaryAddress: null,
    offerLinks: { aws: null, azure: null, gcp: null },
  };
}
