import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localServiceAccountId } from '../../local/local-onboarding';
import {
  changeSimulatedCloud,
  connectedAwsAccount,
  type SimulatedAwsAccount,
} from '../../local/simulated-cloud';
import { onboardingKey } from '../../shared/store/keys';
import { admin, type CreatedKey, type CreatedPartner } from '../support/admin-cli';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { consentAsAdministrator } from '../support/azure-consent';
import { type Answer, undocumentedAnswers } from '../support/documented-statuses';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { itemAt, type LocalStoreObserver, observeLocalStore } from '../support/local-store';

/**
 * Onboarding (#16-#21) over HTTP against the real local server on the simulated cloud: the
 * partner's whole flow, each check's statuses on broken simulated setups, and the refusals.
 */

interface Caller {
  readonly orgId: string;
  readonly apiKey: string;
}

let server: LocalServer;
let store: LocalStoreObserver;
let partner: Caller;
let secondPartner: Caller;
let demoCustomer: Caller;
let supportKey: string;

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  store = await observeLocalStore(server.dir);
  partner = { orgId: server.credentials.partner.org_id, apiKey: server.credentials.partner.api_key };
  demoCustomer = { orgId: server.credentials.org.org_id, apiKey: server.credentials.org.api_key };
  const [created, support] = await Promise.all([
    admin<CreatedPartner>(server.dir, ['create-partner', '--name', 'Other Partner']),
    admin<CreatedKey>(server.dir, [
      'create-key',
      '--org',
      demoCustomer.orgId,
      '--email',
      'support@demo-customer.example',
      '--role',
      'support',
    ]),
  ]);
  secondPartner = { orgId: created.org_id, apiKey: created.api_key };
  supportKey = support.api_key;
});

afterAll(async () => {
  await store?.close();
  await server?.stop();
});

const answered: Answer[] = [];

async function api(path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const response = await callApi(server.baseUrl, path, request);
  answered.push({
    method: request.method ?? 'GET',
    path: new URL(path, server.baseUrl).pathname,
    status: response.status,
  });
  return response;
}

const onboarding = (orgId: string, rest: string) => `/v2/org/${orgId}/partners/onboarding/${rest}`;
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;
let nextAccount = 300000000000;
const newAccountId = () => String(nextAccount++);

async function registerChild(caller: Caller = partner): Promise<string> {
  const response = await api(onboarding(caller.orgId, 'register_child'), {
    method: 'POST',
    apiKey: caller.apiKey,
    json: { company: unique('Child'), email: `admin@${randomUUID().slice(0, 8)}.example` },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.org_id;
}

async function start(orgId: string, apiKey = partner.apiKey): Promise<string> {
  const response = await api(onboarding(orgId, 'start'), { method: 'POST', apiKey });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.onboarding_id;
}

const cur = { region: 'us-east-1', bucket: 'child-cost-exports', prefix: 'cur', report_name: 'hourly' };

function verifyAws(orgId: string, json: unknown, apiKey = partner.apiKey) {
  return api(onboarding(orgId, 'aws/verify'), { method: 'POST', apiKey, json });
}

/** The statuses of a checklist, by feature. */
function statuses(items: { feature: string; status: string }[]): Record<string, string> {
  return Object.fromEntries(items.map((item) => [item.feature, item.status]));
}

const allAvailable = (features: string[]) =>
  Object.fromEntries(features.map((feature) => [feature, 'available']));
const awsFeatures = [
  'role_assumable',
  'cur_export',
  'cur_hourly',
  'cur_resource_ids',
  'cur_bucket_readable',
  'cur_delivered',
  'cost_explorer_access',
  'purchase_permission',
];
const azureFeatures = [
  'admin_consent',
  'subscription_access',
  'cost_export',
  'reservation_purchase',
  'savings_plan_purchase',
];

describe('the partner flow', () => {
  it('registers a child, connects its AWS account and Azure tenant, and lists it with available checklists', async () => {
    // Prepare
    const childId = await registerChild();
    const accountId = newAccountId();
    const tenantId = randomUUID();
    const subscriptionId = randomUUID();

    // Act
    const onboardingId = await start(childId);
    const again = await start(childId);
    const template = await api(onboarding(childId, 'aws/cloudformation_template'), {
      apiKey: partner.apiKey,
    });
    // The customer deploys the template: the operator CLI sets the simulated account up so.
    await admin(server.dir, [
      'simulate-cloud',
      'aws',
      '--account',
      accountId,
      '--org',
      childId,
      '--bucket',
      cur.bucket,
      '--prefix',
      cur.prefix,
      '--report-name',
      cur.report_name,
    ]);
    const awsChecks = await verifyAws(childId, {
      onboarding_id: onboardingId,
      account_id: accountId,
      existing_cur: cur,
    });
    await admin(server.dir, [
      'simulate-cloud',
      'azure',
      '--tenant',
      tenantId,
      '--subscription',
      subscriptionId,
    ]);
    const authUrl = await api(onboarding(childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { tenant_id: tenantId, subscription_id: subscriptionId },
    });
    const consentPage = await fetch(authUrl.body.url);
    const consented = await consentAsAdministrator(authUrl.body.url, tenantId);
    const azureChecks = await api(onboarding(childId, 'azure/verify'), {
      method: 'POST',
      apiKey: partner.apiKey,
    });
    const children = await api(`${onboarding(partner.orgId, 'child-orgs')}?page_size=100`, {
      apiKey: partner.apiKey,
    });

    // Assess
    expect(again).toBe(onboardingId);
    expect(template.status).toBe(200);
    const externalId = template.body.template.Parameters.ExternalId.Default;
    expect(externalId).toMatch(/^cpo-[0-9a-f]{32}$/);
    expect(template.body.quick_create_url).toContain(`param_ExternalId=${externalId}`);
    expect(awsChecks.status).toBe(200);
    expect(statuses(awsChecks.body)).toEqual(allAvailable(awsFeatures));
    expect(JSON.stringify(awsChecks.body)).not.toContain(externalId);
    expect(authUrl.body.url).toMatch(new RegExp(`/${tenantId}/v2\\.0/adminconsent\\?client_id=`));
    expect(await consentPage.text()).toContain('decision=accept');
    expect(consented.status).toBe(200);
    expect(consented.url).toContain('/v2/onboarding/azure/callback');
    expect(await consented.text()).toContain('Access granted');
    expect(statuses(azureChecks.body)).toEqual(allAvailable(azureFeatures));
    const listed = children.body.find((child: { org_id: string }) => child.org_id === childId);
    expect(JSON.parse(children.headers.get('x-pagination') ?? '{}')).toMatchObject({
      page: 1,
      total: children.body.length,
    });
    expect(listed.org_checklist).toContainEqual(
      expect.objectContaining({ feature: 'users_invited', status: 'available' }),
    );
    // Verified, never synced (docs/usage-sync.md): the usage sync item follows the verification's.
    expect(statuses(listed.integration_checklist.aws)).toEqual({
      ...allAvailable(awsFeatures),
      usage_sync: 'missing',
    });
    expect(statuses(listed.integration_checklist.azure)).toEqual({
      ...allAvailable(azureFeatures),
      usage_sync: 'missing',
    });
  });

  it('lists the seeded demo customer with its connected clouds available', async () => {
    // Act
    const children = await api(onboarding(partner.orgId, 'child-orgs'), { apiKey: partner.apiKey });

    // Assess
    const demo = children.body.find((child: { org_id: string }) => child.org_id === demoCustomer.orgId);
    expect(statuses(demo.integration_checklist.aws)).toMatchObject(allAvailable(awsFeatures));
    expect(statuses(demo.integration_checklist.azure)).toMatchObject(allAvailable(azureFeatures));
  });

  it('pages the children with X-Pagination, each unverified provider unknown', async () => {
    // Prepare
    const other = await api(onboarding(secondPartner.orgId, 'register_child'), {
      method: 'POST',
      apiKey: secondPartner.apiKey,
      json: { company: unique('First') },
    });
    await api(onboarding(secondPartner.orgId, 'register_child'), {
      method: 'POST',
      apiKey: secondPartner.apiKey,
      json: { company: unique('Second') },
    });

    // Act
    const firstPage = await api(`${onboarding(secondPartner.orgId, 'child-orgs')}?page=1&page_size=1`, {
      apiKey: secondPartner.apiKey,
    });

    // Assess
    expect(firstPage.body).toHaveLength(1);
    expect(firstPage.body[0].org_id).toBe(other.body.org_id);
    expect(JSON.parse(firstPage.headers.get('x-pagination') ?? '{}')).toEqual({
      total: 2,
      total_pages: 2,
      first_page: 1,
      last_page: 2,
      page: 1,
      previous_page: null,
      next_page: 2,
    });
    expect(statuses(firstPage.body[0].integration_checklist.aws)).toEqual({
      ...Object.fromEntries(awsFeatures.map((feature) => [feature, 'unknown'])),
      usage_sync: 'missing',
    });
    expect(firstPage.body[0].org_checklist).toContainEqual(
      expect.objectContaining({ feature: 'users_invited', status: 'missing' }),
    );
  });
});

describe('AWS checks on broken setups', () => {
  let childId: string;
  let onboardingId: string;
  let externalId: string;

  beforeAll(async () => {
    childId = await registerChild();
    onboardingId = await start(childId);
    const template = await api(onboarding(childId, 'aws/cloudformation_template'), {
      apiKey: partner.apiKey,
    });
    externalId = template.body.template.Parameters.ExternalId.Default;
  });

  const cases: [string, (account: SimulatedAwsAccount) => void, Record<string, string>][] = [
    [
      'no role',
      (a) => (a.role = null),
      { role_assumable: 'missing', cur_export: 'unknown', purchase_permission: 'unknown' },
    ],
    [
      'a wrong external id',
      (a) => {
        if (a.role) a.role.external_id = 'cpo-0000';
      },
      { role_assumable: 'missing', cur_export: 'unknown' },
    ],
    [
      'a daily export',
      (a) => ((a.exports[0] as { granularity: string }).granularity = 'DAILY'),
      { cur_hourly: 'warning', cur_export: 'available' },
    ],
    [
      'a CSV export',
      (a) => ((a.exports[0] as { format: string }).format = 'csv'),
      { cur_export: 'warning', cur_hourly: 'available' },
    ],
    [
      'no resource ids',
      (a) => ((a.exports[0] as { resource_ids: boolean }).resource_ids = false),
      { cur_resource_ids: 'missing' },
    ],
    [
      'no export',
      (a) => (a.exports = []),
      { cur_export: 'missing', cur_hourly: 'missing', cur_bucket_readable: 'available' },
    ],
    [
      'exports it may not read',
      (a) => (a.permissions.exports = false),
      { cur_export: 'unknown', cur_hourly: 'unknown', cur_delivered: 'available' },
    ],
    [
      'an unreadable bucket',
      (a) => (a.permissions.bucket = false),
      { cur_bucket_readable: 'missing', cur_delivered: 'unknown' },
    ],
    ['no bucket', (a) => (a.buckets = {}), { cur_bucket_readable: 'missing', cur_delivered: 'missing' }],
    [
      'no delivery yet',
      (a) => (a.buckets[cur.bucket] = { objects: [] }),
      { cur_bucket_readable: 'available', cur_delivered: 'missing' },
    ],
    [
      'no Cost Explorer access',
      (a) => (a.permissions.cost_explorer = false),
      { cost_explorer_access: 'missing' },
    ],
    [
      'no purchase permission',
      (a) => (a.permissions.purchase = false),
      { purchase_permission: 'missing', cur_export: 'available' },
    ],
    [
      'Cost Explorer throttled',
      (a) => (a.throttled = ['cost_explorer']),
      { cost_explorer_access: 'unknown', purchase_permission: 'available' },
    ],
    ['STS throttled', (a) => (a.throttled = ['assume_role']), { role_assumable: 'unknown' }],
  ];

  it.each(cases)(
    'with %s, answers each check as the setup allows and keeps the details',
    async (_name, breakIt, expected) => {
      // Prepare
      const accountId = newAccountId();
      await changeSimulatedCloud(server.dir, (cloud) => {
        const account = connectedAwsAccount({
          serviceAccountId: localServiceAccountId,
          externalId,
          bucket: cur.bucket,
          prefix: cur.prefix,
          reportName: cur.report_name,
        });
        breakIt(account);
        cloud.aws[accountId] = account;
      });

      // Act
      const response = await verifyAws(childId, {
        onboarding_id: onboardingId,
        account_id: accountId,
        existing_cur: cur,
      });

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.map((item: { feature: string }) => item.feature)).toEqual(awsFeatures);
      expect(statuses(response.body)).toMatchObject(expected);
      for (const item of response.body) expect(item.detail).not.toBe('');
    },
  );

  it('sets an account up and breaks it with the admin CLI', async () => {
    // Prepare
    const accountId = newAccountId();
    await admin(server.dir, [
      'simulate-cloud',
      'aws',
      '--account',
      accountId,
      '--org',
      childId,
      '--bucket',
      cur.bucket,
      '--prefix',
      cur.prefix,
      '--report-name',
      cur.report_name,
    ]);
    await admin(server.dir, [
      'simulate-cloud',
      'aws',
      '--account',
      accountId,
      '--granularity',
      'DAILY',
      '--deny',
      'purchase',
    ]);

    // Act
    const response = await verifyAws(childId, {
      onboarding_id: onboardingId,
      account_id: accountId,
      existing_cur: cur,
    });

    // Assess
    expect(statuses(response.body)).toMatchObject({
      role_assumable: 'available',
      cur_hourly: 'warning',
      purchase_permission: 'missing',
    });
  });
});

describe('Azure checks', () => {
  it('answers admin_consent missing before an administrator of the tenant signed in, calling no cloud', async () => {
    // Prepare
    const childId = await registerChild();
    const tenantId = randomUUID();
    const subscriptionId = randomUUID();
    await admin(server.dir, [
      'simulate-cloud',
      'azure',
      '--tenant',
      tenantId,
      '--subscription',
      subscriptionId,
    ]);
    await api(onboarding(childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { tenant_id: tenantId, subscription_id: subscriptionId },
    });

    // Act
    const response = await api(onboarding(childId, 'azure/verify'), {
      method: 'POST',
      apiKey: partner.apiKey,
    });

    // Assess
    expect(statuses(response.body)).toEqual({
      admin_consent: 'missing',
      subscription_access: 'unknown',
      cost_export: 'unknown',
      reservation_purchase: 'unknown',
      savings_plan_purchase: 'unknown',
    });
    expect(response.body[0].detail).toContain('no administrator of the tenant has signed in');
  });

  it('answers reservation_purchase missing when consented without the Reservation Purchaser role', async () => {
    // Prepare
    const childId = await registerChild();
    const tenantId = randomUUID();
    const subscriptionId = randomUUID();
    await admin(server.dir, [
      'simulate-cloud',
      'azure',
      '--tenant',
      tenantId,
      '--subscription',
      subscriptionId,
      '--roles',
      'Reader,Cost Management Reader,Savings plan Purchaser',
    ]);
    const authUrl = await api(onboarding(childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { tenant_id: tenantId, subscription_id: subscriptionId },
    });
    expect(await (await consentAsAdministrator(authUrl.body.url, tenantId)).text()).toContain(
      'Access granted',
    );

    // Act
    const response = await api(onboarding(childId, 'azure/verify'), {
      method: 'POST',
      apiKey: partner.apiKey,
    });

    // Assess
    expect(statuses(response.body)).toEqual({
      admin_consent: 'available',
      subscription_access: 'available',
      cost_export: 'available',
      reservation_purchase: 'missing',
      savings_plan_purchase: 'available',
    });
  });

  it('records a refused consent, which azure/verify then reports', async () => {
    // Prepare
    const childId = await registerChild();
    const tenantId = randomUUID();
    const subscriptionId = randomUUID();
    await admin(server.dir, [
      'simulate-cloud',
      'azure',
      '--tenant',
      tenantId,
      '--subscription',
      subscriptionId,
    ]);
    const authUrl = await api(onboarding(childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { tenant_id: tenantId, subscription_id: subscriptionId },
    });

    // Act
    const refused = await fetch(`${authUrl.body.url}&decision=decline`);
    const response = await api(onboarding(childId, 'azure/verify'), {
      method: 'POST',
      apiKey: partner.apiKey,
    });

    // Assess
    expect(await refused.text()).toContain('Access not granted');
    expect(response.body[0]).toMatchObject({ feature: 'admin_consent', status: 'missing' });
    expect(response.body[0].detail).toContain('AADSTS65004');
  });
});

describe('refusals leave the store unchanged', () => {
  async function unchanged(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const before = await store.snapshot();
    const response = await request();
    expect(await store.snapshot()).toEqual(before);
    return response;
  }

  it('answers 404 for another onboarding id and 422 naming malformed fields', async () => {
    // Prepare
    const childId = await registerChild();
    await start(childId);

    // Act
    const wrongId = await unchanged(() =>
      verifyAws(childId, { onboarding_id: randomUUID(), account_id: '123456789012', existing_cur: cur }),
    );
    const malformed = await unchanged(() =>
      verifyAws(childId, {
        onboarding_id: 'not-a-uuid',
        account_id: '1234',
        existing_cur: { ...cur, bucket: 'A' },
      }),
    );

    // Assess
    expect(wrongId.status).toBe(404);
    expect(malformed.status).toBe(422);
    expect(Object.keys(malformed.body.errors).sort()).toEqual([
      'account_id',
      'existing_cur.bucket',
      'onboarding_id',
    ]);
  });

  it("hides another partner's child (404) and refuses a customer's member without the admin role (403)", async () => {
    // Prepare
    const childId = await registerChild();

    // Act
    const otherPartner = await unchanged(() =>
      api(onboarding(childId, 'start'), { method: 'POST', apiKey: secondPartner.apiKey }),
    );
    const support = await unchanged(() =>
      api(onboarding(demoCustomer.orgId, 'start'), { method: 'POST', apiKey: supportKey }),
    );
    const customerListing = await unchanged(() =>
      api(onboarding(demoCustomer.orgId, 'child-orgs'), { apiKey: demoCustomer.apiKey }),
    );
    const customerRegistering = await unchanged(() =>
      api(onboarding(demoCustomer.orgId, 'register_child'), {
        method: 'POST',
        apiKey: demoCustomer.apiKey,
        json: { company: unique('Sneaky') },
      }),
    );

    // Assess
    expect(otherPartner.status).toBe(404);
    expect(support.status).toBe(403);
    expect(customerListing.status).toBe(403);
    expect(customerRegistering.status).toBe(403);
  });

  it('answers 409 for a duplicate company and 422 for a bad e-mail', async () => {
    // Prepare
    const company = unique('Duplicate');
    await api(onboarding(partner.orgId, 'register_child'), {
      method: 'POST',
      apiKey: partner.apiKey,
      json: { company },
    });

    // Act
    const duplicate = await unchanged(() =>
      api(onboarding(partner.orgId, 'register_child'), {
        method: 'POST',
        apiKey: partner.apiKey,
        json: { company },
      }),
    );
    const badEmail = await unchanged(() =>
      api(onboarding(partner.orgId, 'register_child'), {
        method: 'POST',
        apiKey: partner.apiKey,
        json: { company: unique('Mail'), email: `${'a'.repeat(250)}@example.com` },
      }),
    );

    // Assess
    expect(duplicate.status).toBe(409);
    expect(badEmail.status).toBe(422);
    expect(Object.keys(badEmail.body.errors)).toEqual(['email']);
  });

  it('shows an invalid consent link without recording anything', async () => {
    // Act
    const response = await unchanged(() =>
      api('/v2/onboarding/azure/callback?admin_consent=True&state=forged.state'),
    );

    // Assess
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.body).toContain('Link no longer valid');
  });
});

describe('an org admin', () => {
  it("runs its own org's onboarding and verify, and never sees the external id outside the template", async () => {
    // Act
    const onboardingId = await start(demoCustomer.orgId, demoCustomer.apiKey);
    const { aws } = server.credentials.cloud ?? { aws: null };
    const response = await verifyAws(
      demoCustomer.orgId,
      { onboarding_id: onboardingId, account_id: aws?.account_id, existing_cur: aws?.existing_cur },
      demoCustomer.apiKey,
    );
    const stored = itemAt(await store.snapshot(), onboardingKey(demoCustomer.orgId));

    // Assess
    expect(statuses(response.body)).toEqual(allAvailable(awsFeatures));
    expect(JSON.stringify(response.body)).not.toContain(String(stored?.externalId));
  });
});

describe('documentation', () => {
  it('documents every status this file saw in the OpenAPI document', async () => {
    expect(await undocumentedAnswers(answered)).toEqual([]);
  });
});
