import * as z from 'zod/mini';
import {
  displayName,
  displayNameText,
  domainNamePattern,
  emailAddress,
  marketplaceOfferLink,
} from './formats';
import {
  addressInput,
  distinctEmails,
  maxUsersPerRequest,
  partnerSubscriptionId,
  userInvites,
} from './partners';
import { described, named } from './schema-registry';

/**
 * #14, registering a child org. The spec shows two request forms; both are accepted, and the
 * handler reads either as one registration (functions/partner-orgs/registration-forms.ts). When a
 * body fits neither, the errors name the fields of the form it resembles more (see
 * validation-errors.ts).
 */

/** The reference form. */
export const childOrgRegistrationBody = /* @__PURE__ */ named('RegisterChildOrgRequest', () =>
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
export const legacyChildOrgRegistrationBody = /* @__PURE__ */ named('RegisterChildOrgByNamesRequest', () =>
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
        z.optional(z.array(displayNameText()).check(z.maxLength(maxUsersPerRequest))),
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

export const registerChildOrgBody = /* @__PURE__ */ z.lazy(() =>
  z.union([childOrgRegistrationBody, legacyChildOrgRegistrationBody]),
);
export type RegisterChildOrgBody = z.infer<typeof registerChildOrgBody>;
