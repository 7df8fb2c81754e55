import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { admin } from './admin-cli';
import type { ApiResponse } from './api-client';
import { type Caller, type PartnerTenants, unique } from './partner-tenants';

/** The onboarding endpoints (docs/onboarding.md) of an org: `rest` is the endpoint after `onboarding/`. */
export const onboarding = (orgId: string, rest: string) => `/v2/org/${orgId}/partners/onboarding/${rest}`;

/** A cost and usage report as the simulated cloud's accounts deliver it. */
export const cur = {
  region: 'us-east-1',
  bucket: 'child-cost-exports',
  prefix: 'cur',
  report_name: 'hourly',
};

/**
 * A new Azure tenant and subscription in the simulated cloud of the server whose LOCAL_DIR is
 * `dir`, made with the operator CLI; `options` adds to `simulate-cloud azure` (`--roles ...`,
 * `--consent`).
 */
export async function simulatedAzureTenant(
  dir: string,
  options: readonly string[] = [],
): Promise<{ tenantId: string; subscriptionId: string }> {
  const tenantId = randomUUID();
  const subscriptionId = randomUUID();
  await admin(dir, [
    'simulate-cloud',
    'azure',
    '--tenant',
    tenantId,
    '--subscription',
    subscriptionId,
    ...options,
  ]);
  return { tenantId, subscriptionId };
}

/**
 * The customer deploys the onboarding template: the operator CLI sets the simulated AWS account
 * `accountId` up for `orgId`, delivering the `cur` report, on the server whose LOCAL_DIR is `dir`.
 */
export async function deployedAwsAccount(dir: string, accountId: string, orgId: string): Promise<void> {
  await admin(dir, [
    'simulate-cloud',
    'aws',
    '--account',
    accountId,
    '--org',
    orgId,
    '--bucket',
    cur.bucket,
    '--prefix',
    cur.prefix,
    '--report-name',
    cur.report_name,
  ]);
}

/** The statuses of a checklist, by feature. */
export function statuses(items: { feature: string; status: string }[]): Record<string, string> {
  return Object.fromEntries(items.map((item) => [item.feature, item.status]));
}

export const allAvailable = (features: string[]) =>
  Object.fromEntries(features.map((feature) => [feature, 'available']));
export const awsFeatures = [
  'role_assumable',
  'cur_export',
  'cur_hourly',
  'cur_resource_ids',
  'cur_bucket_readable',
  'cur_delivered',
  'cost_explorer_access',
  'purchase_permission',
];
export const azureFeatures = [
  'admin_consent',
  'subscription_access',
  'cost_export',
  'reservation_purchase',
  'savings_plan_purchase',
];

/** The onboarding steps a test takes through the API of `tenants`' server, the demo partner asking by default. */
export interface OnboardingCalls {
  /** Registers a child org of `caller` (the demo partner by default) and answers its id. */
  registerChild(caller?: Caller): Promise<string>;
  /** Starts the org's onboarding and answers its id. */
  start(orgId: string, apiKey?: string): Promise<string>;
  verifyAws(orgId: string, json: unknown, apiKey?: string): Promise<ApiResponse>;
  /** An AWS account id no other test of the file uses. */
  newAccountId(): string;
}

export function onboardingCalls(tenants: PartnerTenants): OnboardingCalls {
  const { api } = tenants;
  let nextAccount = 300000000000;
  return {
    async registerChild(caller = tenants.partner) {
      const response = await api(onboarding(caller.orgId, 'register_child'), {
        method: 'POST',
        apiKey: caller.apiKey,
        json: { company: unique('Child'), email: `admin@${randomUUID().slice(0, 8)}.example` },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.org_id;
    },
    async start(orgId, apiKey = tenants.partner.apiKey) {
      const response = await api(onboarding(orgId, 'start'), { method: 'POST', apiKey });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.onboarding_id;
    },
    verifyAws: (orgId, json, apiKey = tenants.partner.apiKey) =>
      api(onboarding(orgId, 'aws/verify'), { method: 'POST', apiKey, json }),
    newAccountId: () => String(nextAccount++),
  };
}
