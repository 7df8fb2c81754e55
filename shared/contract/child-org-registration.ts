import * as z from 'zod/mini';
import type { MemberInvite } from '../app/members';
import type { ChildOrgRegistration } from '../app/partner-orgs';
import { type MembershipRole, normalizeEmail } from '../domain/orgs';
import { displayName, domainNamePattern, emailAddress, marketplaceOfferLink } from './formats';
import {
  addressInput,
  distinctEmails,
  maxUsersPerRequest,
  partnerSubscriptionId,
  userInvites,
} from './partners';
import { described, named } from './schema-registry';

/**
 * #14, registering a child org. The spec shows two request forms; both are accepted and read as
 * one `ChildOrgRegistration`. When a body fits neither, the errors name the fields of the form
 * it resembles more (see validation-errors.ts).
 */

/** The reference form. */
export const childOrgRegistrationBody = named('RegisterChildOrgRequest', () =>
  z.strictObject({
    name: displayName,
    partner_subscription_id: z.optional(partnerSubscriptionId),
    users: z.optional(userInvites()),
    domain: described(
      z.optional(
        z.nullable(
          z.string().check(z.trim(), z.toLowerCase(), z.regex(domainNamePattern, 'must be a domain name')),
        ),
      ),
      "the customer's e-mail domain, e.g. example.com",
    ),
    primary_address: z.optional(addressInput),
    aws_marketplace_offer_link: z.optional(marketplaceOfferLink),
    azure_marketplace_offer_link: z.optional(marketplaceOfferLink),
    gcp_marketplace_offer_link: z.optional(marketplaceOfferLink),
  }),
);
export type ChildOrgRegistrationBody = z.infer<typeof childOrgRegistrationBody>;

/** The second form: users as parallel lists of e-mail addresses and names. */
export const legacyChildOrgRegistrationBody = named('RegisterChildOrgByNamesRequest', () =>
  z
    .strictObject({
      org_name: displayName,
      org_email: described(z.optional(emailAddress), "the organization's contact; becomes a member"),
      user_emails: z.optional(
        z
          .array(emailAddress)
          .check(z.maxLength(maxUsersPerRequest), z.superRefine(distinctEmails((email: string) => email))),
      ),
      user_names: described(
        z.optional(
          z.array(z.string().check(z.trim(), z.maxLength(255))).check(z.maxLength(maxUsersPerRequest)),
        ),
        'names of the users, in the order of `user_emails`',
      ),
      partner_subscription_id: z.optional(partnerSubscriptionId),
    })
    .check(
      z.refine((body) => (body.user_names?.length ?? 0) <= (body.user_emails?.length ?? 0), {
        path: ['user_names'],
        message: 'must not list more names than user_emails lists addresses',
      }),
    ),
);
export type LegacyChildOrgRegistrationBody = z.infer<typeof legacyChildOrgRegistrationBody>;

export const registerChildOrgBody = z.lazy(() =>
  z.union([childOrgRegistrationBody, legacyChildOrgRegistrationBody]),
);
export type RegisterChildOrgBody = z.infer<typeof registerChildOrgBody>;

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
