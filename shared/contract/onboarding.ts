import * as z from 'zod/mini';
import type { CheckResult } from '../domain/onboarding/checklist';
import { checklistStatus } from './enums';
import { dateTime, displayName, emailAddress, openObject } from './formats';
import { partnerSubscriptionId } from './partners';
import { page, pageSize } from './plan-queries';
import { singleValue } from './query';
import { described, named } from './schema-registry';

/** Partner onboarding of child orgs and their clouds (#16 to #21). */

export const checklistItem = /* @__PURE__ */ named('ChecklistItem', () =>
  z.object({
    feature: z.string(),
    status: checklistStatus,
    detail: described(z.string(), "what was found, or the provider's message when a check failed"),
  }),
);
export type ChecklistItem = z.infer<typeof checklistItem>;

export const checklist = /* @__PURE__ */ z.lazy(() => z.array(checklistItem));

/** A check as the contract shows it (the verifications, #18 and #19, and the child orgs, #21). */
export function checklistItemView(item: CheckResult): ChecklistItem {
  return { feature: item.feature, status: item.status, detail: item.detail };
}

export const childOrgEntry = /* @__PURE__ */ named(
  'ChildOrgEntry',
  () =>
    z.object({
      created_at: dateTime,
      org_id: z.string(),
      org_name: z.string(),
      org_checklist: z.array(checklistItem),
      integration_checklist: described(
        z.object({ aws: z.array(checklistItem), azure: z.array(checklistItem) }),
        'per provider: the items of its last verification (every one `unknown` before the first), then `usage_sync`: `available` (when the last sync ended, rows read), `warning` (the last sync failed: which file, why) or `missing` (never synced)',
      ),
    }),
  "A partner's child organization with its onboarding checklists",
);
export type ChildOrgEntry = z.infer<typeof childOrgEntry>;

/** #16 */
export const registerChildBody = /* @__PURE__ */ named('RegisterChildRequest', () =>
  z.strictObject({
    company: displayName,
    partner_subscription_id: z.optional(partnerSubscriptionId),
    email: z.optional(z.nullable(emailAddress)),
  }),
);
export type RegisterChildBody = z.infer<typeof registerChildBody>;

export const registerChildResponse = /* @__PURE__ */ named('RegisteredChild', () =>
  z.object({ org_id: z.string() }),
);
export type RegisterChildResponse = z.infer<typeof registerChildResponse>;

/** #17 */
export const onboardingStarted = /* @__PURE__ */ named('OnboardingStarted', () =>
  z.object({ onboarding_id: z.uuidv4() }),
);
export type OnboardingStarted = z.infer<typeof onboardingStarted>;

/** #18: where the account's existing Cost and Usage Report is delivered, when it has one. */
export const existingCostAndUsageReport = /* @__PURE__ */ named('ExistingCostAndUsageReport', () =>
  z.strictObject({
    region: described(
      z.string().check(z.regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region such as us-east-1')),
      'AWS region of the bucket',
    ),
    bucket: described(
      z.string().check(z.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')),
      'S3 bucket the report is delivered to',
    ),
    prefix: described(
      z.string().check(z.maxLength(1024)),
      'key prefix of the report in the bucket; may be empty',
    ),
    report_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(256)),
  }),
);

export const awsVerifyBody = /* @__PURE__ */ named('VerifyAwsOnboardingRequest', () =>
  z.strictObject({
    onboarding_id: described(z.uuidv4(), 'from #17 (a version-4 UUID)'),
    account_id: described(
      z.string().check(z.regex(/^\d{12}$/, 'must be a 12-digit AWS account id')),
      'AWS account id',
    ),
    existing_cur: z.optional(existingCostAndUsageReport),
  }),
);
export type AwsVerifyBody = z.infer<typeof awsVerifyBody>;

/** #20 */
export const azureAuthUrlBody = /* @__PURE__ */ named('CreateAzureAuthUrlRequest', () =>
  z.strictObject({
    tenant_id: described(
      z.union([
        z.guid(),
        z
          .string()
          .check(
            z.maxLength(253),
            z.regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'must be a tenant id or a verified domain'),
          ),
      ]),
      'Microsoft Entra tenant: its id (uuid) or one of its verified domains',
    ),
    subscription_id: described(z.guid(), 'Azure subscription id'),
  }),
);
export type AzureAuthUrlBody = z.infer<typeof azureAuthUrlBody>;

export const azureAuthUrl = /* @__PURE__ */ named('AzureAuthUrl', () =>
  z.object({
    url: described(
      z.url({ protocol: /^https?$/ }),
      "hand this URL to the customer to grant access (https; the local server's simulated consent page is http)",
    ),
  }),
);
export type AzureAuthUrl = z.infer<typeof azureAuthUrl>;

/** The AWS role template (CloudFormation) of the org, and the console link that deploys it. */
export const awsRoleTemplate = /* @__PURE__ */ named('AwsRoleTemplate', () =>
  z.object({
    template: described(
      openObject,
      'a CloudFormation template (JSON): the onboarding role and its two policies',
    ),
    quick_create_url: described(
      z.url({ protocol: /^https$/ }),
      'opens CloudFormation with the stack filled in',
    ),
  }),
);
export type AwsRoleTemplate = z.infer<typeof awsRoleTemplate>;

/** #21 */
export const childOrgsQuery = /* @__PURE__ */ z.lazy(() => z.strictObject({ page, page_size: pageSize }));

const callbackParam = /* @__PURE__ */ z.lazy(() =>
  z.optional(singleValue(z.string().check(z.maxLength(4096)))),
);

/**
 * What the Microsoft identity platform sends to the consent callback: after the admin consent,
 * `admin_consent`, `tenant` and our `state` on success, `error` and `error_description` on
 * refusal; after the sign-in that proves it, `code` and `state` (or the error). Other parameters
 * it may add (such as `scope` or `session_state`) are ignored.
 */
export const consentCallbackQuery = /* @__PURE__ */ z.lazy(() =>
  z.object({
    state: callbackParam,
    admin_consent: callbackParam,
    tenant: callbackParam,
    code: callbackParam,
    error: callbackParam,
    error_description: callbackParam,
  }),
);
