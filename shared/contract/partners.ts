import * as z from 'zod/mini';
import { normalizeEmail } from '../domain/orgs';
import { membershipRole } from './enums';
import { emailAddress, marketplaceOfferLink, readableText, uuid } from './formats';
import { described, named } from './schema-registry';

/** Partner settings, organizations and memberships (#11, #14, #15). */

export const partnerSettings = /* @__PURE__ */ named(
  'PartnerSettings',
  () =>
    z.object({
      id: uuid,
      name: z.string(),
      aws_marketplace_offer_link: z.nullable(marketplaceOfferLink),
      azure_marketplace_offer_link: z.nullable(marketplaceOfferLink),
      gcp_marketplace_offer_link: z.nullable(marketplaceOfferLink),
    }),
  'A partner organization and its marketplace offer links (null: not set)',
);
export type PartnerSettings = z.infer<typeof partnerSettings>;

/** #11: a field left out stays as it is; `null` clears the link. */
export const partnerSettingsBody = /* @__PURE__ */ named('UpdatePartnerSettingsRequest', () =>
  z.strictObject({
    aws_marketplace_offer_link: z.optional(z.nullable(marketplaceOfferLink)),
    azure_marketplace_offer_link: z.optional(z.nullable(marketplaceOfferLink)),
    gcp_marketplace_offer_link: z.optional(z.nullable(marketplaceOfferLink)),
  }),
);
export type PartnerSettingsBody = z.infer<typeof partnerSettingsBody>;

export const address = /* @__PURE__ */ named('Address', () =>
  z.object({
    line1: z.string(),
    line2: z.nullable(z.string()),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    country: z.string(),
  }),
);
export type Address = z.infer<typeof address>;

const addressLine = /* @__PURE__ */ z.lazy(() => readableText(255).check(z.minLength(1)));

export const addressInput = /* @__PURE__ */ named('AddressInput', () =>
  z.strictObject({
    line1: addressLine,
    line2: z.optional(z.nullable(addressLine)),
    city: addressLine,
    state: addressLine,
    zip: readableText(20).check(z.minLength(1)),
    country: addressLine,
  }),
);
export type AddressInput = z.infer<typeof addressInput>;

export const membership = /* @__PURE__ */ named('Membership', () =>
  z.object({ role: membershipRole, username: emailAddress }),
);
export type Membership = z.infer<typeof membership>;

export const organization = /* @__PURE__ */ named('Organization', () =>
  z.object({
    id: uuid,
    name: z.string(),
    memberships: z.array(membership),
    domain: z.nullable(z.string()),
    primary_address: z.nullable(address),
    aws_marketplace_offer_link: z.nullable(marketplaceOfferLink),
    azure_marketplace_offer_link: z.nullable(marketplaceOfferLink),
    gcp_marketplace_offer_link: z.nullable(marketplaceOfferLink),
  }),
);
export type Organization = z.infer<typeof organization>;

/** #14's answer: the organization, its id also as `child_org_id` (the second registration form reads that). */
export const registeredOrganization = /* @__PURE__ */ named('RegisteredOrganization', () =>
  z.extend(organization._zod.innerType, { child_org_id: described(uuid, 'the same value as `id`') }),
);
export type RegisteredOrganization = z.infer<typeof registeredOrganization>;

/** The partner's own reference for a customer org (the spec's `partner_subscription_id`). */
export const partnerSubscriptionId = /* @__PURE__ */ z.lazy(() =>
  described(readableText(255).check(z.minLength(1)), "the partner's own reference for the customer"),
);

/** Most users one request may name (registration, invites). */
export const maxUsersPerRequest = 100;

/**
 * Rejects an e-mail address listed twice (compared as stored: trimmed, lower-cased), naming
 * the later entry: a membership per person, with one role.
 */
export function distinctEmails<T>(emailOf: (entry: T) => string, field?: string) {
  return (entries: readonly T[], ctx: z.core.$RefinementCtx<readonly T[]>) => {
    const seen = new Map<string, number>();
    entries.forEach((entry, index) => {
      const email = normalizeEmail(emailOf(entry));
      const first = seen.get(email);
      if (first === undefined) {
        seen.set(email, index);
        return;
      }
      ctx.addIssue({
        code: 'custom',
        message: `repeats the e-mail address of entry ${first}`,
        path: field === undefined ? [index] : [index, field],
        input: entry,
      });
    });
  };
}

export const userInvite = /* @__PURE__ */ named('UserInvite', () =>
  z.strictObject({ email: emailAddress, role: membershipRole }),
);
export type UserInvite = z.infer<typeof userInvite>;

/** A list of users to make members, each e-mail address once (a new schema on each call). */
export const userInvites = () =>
  z
    .array(userInvite)
    .check(
      z.maxLength(maxUsersPerRequest),
      z.superRefine(distinctEmails((user: UserInvite) => user.email, 'email')),
    );

/** #15: the users to invite. */
export const inviteUsersBody = /* @__PURE__ */ named('InviteUsersRequest', () =>
  z.strictObject({ users: userInvites().check(z.minLength(1)) }),
);
export type InviteUsersBody = z.infer<typeof inviteUsersBody>;
