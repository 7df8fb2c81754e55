import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localServiceAccountId } from '../../local/local-onboarding';
import { changeSimulatedCloud, connectedAwsAccount } from '../../local/simulated-cloud';
import { costExplorerProbeKey, onboardingKey } from '../../shared/store/keys';
import { admin, type CreatedKey } from '../support/admin-cli';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { consentAsAdministrator } from '../support/azure-consent';
import { type Answer, undocumentedAnswers } from '../support/documented-statuses';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { itemAt, type LocalStoreObserver, observeLocalStore } from '../support/local-store';
import { onboarding, simulatedAzureTenant } from '../support/onboarding-calls';
import { unique } from '../support/partner-tenants';

/**
 * The attacks of issue 24 on onboarding, each reproduced over HTTP against the real local server:
 * a replayed or re-targeted Azure consent callback, display names that hide or reorder text, a
 * partner-org admin refused the onboarding of the child it registered, and a Cost Explorer call
 * (billed to the customer) on every verification.
 */

let server: LocalServer;
let store: LocalStoreObserver;
let partnerOrgId: string;
let partnerKey: string;

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  store = await observeLocalStore(server.dir);
  partnerOrgId = server.credentials.partner.org_id;
  partnerKey = server.credentials.partner.api_key;
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

async function unchanged(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await store.snapshot();
  const response = await request();
  expect(await store.snapshot()).toEqual(before);
  return response;
}

async function registerChild(apiKey = partnerKey): Promise<string> {
  const response = await api(onboarding(partnerOrgId, 'register_child'), {
    method: 'POST',
    apiKey,
    json: { company: unique('Child') },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.org_id;
}

/** A child with an Azure tenant in the simulated cloud and a fresh consent link for it. */
async function consentLink(): Promise<{ childId: string; tenantId: string; url: URL; state: string }> {
  const childId = await registerChild();
  const { tenantId, subscriptionId } = await simulatedAzureTenant(server.dir);
  const authUrl = await api(onboarding(childId, 'azure/auth-url'), {
    method: 'POST',
    apiKey: partnerKey,
    json: { tenant_id: tenantId, subscription_id: subscriptionId },
  });
  expect(authUrl.status, JSON.stringify(authUrl.body)).toBe(200);
  const url = new URL(authUrl.body.url);
  return { childId, tenantId, url, state: url.searchParams.get('state') ?? '' };
}

const callback = (params: Record<string, string>) =>
  `/v2/onboarding/azure/callback?${new URLSearchParams(params).toString()}`;

const storedAzure = async (orgId: string) =>
  itemAt(await store.snapshot(), onboardingKey(orgId))?.azure as Record<string, unknown> | undefined;

describe('the Azure consent callback', () => {
  it('honours a link once: the replay answers 400 "no longer valid" and changes nothing', async () => {
    // Prepare
    const { childId, tenantId, url, state } = await consentLink();
    const granted = await consentAsAdministrator(url.toString(), tenantId);

    // Act
    const replayed = await unchanged(() =>
      api(callback({ error: 'access_denied', error_description: 'flipped by a stranger', state })),
    );

    // Assess
    expect(granted.status).toBe(200);
    expect(await granted.text()).toContain('Access granted');
    expect(replayed.status).toBe(400);
    expect(replayed.headers.get('content-type')).toContain('text/html');
    expect(replayed.body).toContain('no longer valid');
    expect(await storedAzure(childId)).toMatchObject({ consent: { granted: true, error: null } });
  });

  it('refuses a grant for another tenant, or naming none, and then still honours the real one', async () => {
    // Prepare
    const { childId, tenantId, url, state } = await consentLink();

    // Act
    const otherTenant = await unchanged(() =>
      api(callback({ admin_consent: 'True', tenant: randomUUID(), state })),
    );
    const noTenant = await unchanged(() => api(callback({ admin_consent: 'True', state })));
    const real = await consentAsAdministrator(url.toString(), tenantId);

    // Assess
    expect([otherTenant.status, noTenant.status]).toEqual([400, 400]);
    expect(otherTenant.body).toContain('no longer valid');
    expect(real.status).toBe(200);
    expect(await real.text()).toContain('Access granted');
    expect(await storedAzure(childId)).toMatchObject({ consent: { granted: true } });
  });

  it('answers 400 to a forged state, and to the link a newer one replaced', async () => {
    // Prepare
    const first = await consentLink();
    const again = await api(onboarding(first.childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: partnerKey,
      json: {
        tenant_id: first.tenantId,
        subscription_id: first.url.searchParams.get('subscription_id') ?? randomUUID(),
      },
    });
    expect(again.status).toBe(200);

    // Act
    const forged = await unchanged(() => api(callback({ admin_consent: 'True', state: 'forged.state' })));
    const replaced = await unchanged(() =>
      api(callback({ admin_consent: 'True', tenant: first.tenantId, state: first.state })),
    );

    // Assess
    expect([forged.status, replaced.status]).toEqual([400, 400]);
  });

  it('stores a refusal capped to printable ASCII, the page escaping it', async () => {
    // Prepare
    const { childId, state } = await consentLink();
    const description = `<script>alert(1)</script>\u202e\u0000${'x'.repeat(4000)}`;

    // Act
    const refused = await api(callback({ error: 'access_denied', error_description: description, state }));

    // Assess
    const consent = (await storedAzure(childId))?.consent as { granted: boolean; error: string };
    expect(refused.status).toBe(200);
    expect(refused.body).not.toContain('<script>');
    expect(refused.body).toContain('&lt;script&gt;');
    expect(consent.granted).toBe(false);
    expect(consent.error.length).toBeLessThanOrEqual('access_denied: '.length + 300);
    expect(consent.error).toMatch(/^access_denied: <script>alert\(1\)<\/script>\\u\{202e\}\\u\{0\}x+\.\.\.$/);
  });
});

describe('display names', () => {
  it.each([
    ['NUL', 'Evil\u0000Child'],
    ['a bidi override', 'Evil\u202eChild'],
    ['a bidi isolate', 'Evil\u2066Child'],
    ['a zero-width space', 'Evil\u200bChild'],
    ['a zero-width joiner', 'Evil\u200dChild'],
    ['a byte-order mark', 'Evil\ufeffChild'],
    ['a control character', 'Evil\u0007Child'],
    ['a lone surrogate', 'Evil\ud800Child'],
  ])('refuses a company name with %s (422 naming company)', async (_what, company) => {
    // Act
    const response = await unchanged(() =>
      api(onboarding(partnerOrgId, 'register_child'), {
        method: 'POST',
        apiKey: partnerKey,
        json: { company },
      }),
    );

    // Assess
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['company']);
  });

  it('refuses a body that is not UTF-8 (422 naming the name)', async () => {
    // Prepare: "Evil" 0xFF "Child", a byte no UTF-8 text holds
    const bytes = Buffer.concat([
      Buffer.from('{"name":"Evil'),
      Buffer.from([0xff]),
      Buffer.from('Child","users":[]}'),
    ]);

    // Act
    const response = await unchanged(async () => {
      const answer = await fetch(new URL(`/v2/partners/${partnerOrgId}/orgs`, server.baseUrl), {
        method: 'POST',
        headers: { 'x-api-key': partnerKey, 'content-type': 'application/json' },
        body: bytes,
      });
      return { status: answer.status, headers: answer.headers, body: await answer.json() };
    });

    // Assess
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['name']);
  });

  it('refuses a user name with a bidi override in the legacy registration (422 naming it)', async () => {
    // Act
    const response = await unchanged(() =>
      api(`/v2/partners/${partnerOrgId}/orgs`, {
        method: 'POST',
        apiKey: partnerKey,
        json: {
          org_name: unique('Names'),
          user_emails: [`a@${randomUUID().slice(0, 8)}.example`],
          user_names: ['Ann\u202eEvil'],
        },
      }),
    );

    // Assess
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['user_names.0']);
  });

  it('stores names NFC-normalized and finds the duplicate of a decomposed spelling (409)', async () => {
    // Prepare: "é" composed (U+00E9) and decomposed (e + U+0301)
    const suffix = randomUUID().slice(0, 8);
    const composed = `Caf\u00e9 ${suffix}`;
    const decomposed = `Cafe\u0301 ${suffix}`;

    // Act
    const first = await api(onboarding(partnerOrgId, 'register_child'), {
      method: 'POST',
      apiKey: partnerKey,
      json: { company: decomposed },
    });
    const duplicate = await unchanged(() =>
      api(onboarding(partnerOrgId, 'register_child'), {
        method: 'POST',
        apiKey: partnerKey,
        json: { company: composed },
      }),
    );
    const children = await api(`${onboarding(partnerOrgId, 'child-orgs')}?page_size=100`, {
      apiKey: partnerKey,
    });

    // Assess
    expect(first.status).toBe(200);
    expect(duplicate.status).toBe(409);
    const listed = children.body.find((child: { org_id: string }) => child.org_id === first.body.org_id);
    expect(listed.org_name).toBe(composed);
  });
});

describe("a partner org's admin", () => {
  it('runs the onboarding of the child it registered, as the partner does', async () => {
    // Prepare
    const adminKey = await admin<CreatedKey>(server.dir, [
      'create-key',
      '--org',
      partnerOrgId,
      '--email',
      `admin-${randomUUID().slice(0, 8)}@partner.example`,
      '--role',
      'admin',
    ]);
    const childId = await registerChild(adminKey.api_key);

    // Act
    const started = await api(onboarding(childId, 'start'), { method: 'POST', apiKey: adminKey.api_key });
    const template = await api(onboarding(childId, 'aws/cloudformation_template'), {
      apiKey: adminKey.api_key,
    });

    // Assess
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(template.status).toBe(200);
  });

  it("leaves a partner org's other roles out (403), as for registering a child", async () => {
    // Prepare
    const childId = await registerChild();
    const supportKey = await admin<CreatedKey>(server.dir, [
      'create-key',
      '--org',
      partnerOrgId,
      '--email',
      `support-${randomUUID().slice(0, 8)}@partner.example`,
      '--role',
      'support',
    ]);

    // Act
    const register = await unchanged(() =>
      api(onboarding(partnerOrgId, 'register_child'), {
        method: 'POST',
        apiKey: supportKey.api_key,
        json: { company: unique('Support') },
      }),
    );
    const start = await unchanged(() =>
      api(onboarding(childId, 'start'), { method: 'POST', apiKey: supportKey.api_key }),
    );

    // Assess
    expect([register.status, start.status]).toEqual([403, 403]);
  });
});

describe('Cost Explorer on repeated verifications', () => {
  const cur = { region: 'us-east-1', bucket: 'child-cost-exports', prefix: 'cur', report_name: 'hourly' };

  it("probes an account at most once an hour, answering the last probe's result meanwhile", async () => {
    // Prepare: a child whose account is connected, Cost Explorer allowed
    const childId = await registerChild();
    const started = await api(onboarding(childId, 'start'), { method: 'POST', apiKey: partnerKey });
    const template = await api(onboarding(childId, 'aws/cloudformation_template'), { apiKey: partnerKey });
    const externalId = template.body.template.Parameters.ExternalId.Default;
    const accountId = String(400000000000 + Math.floor(Math.random() * 99999999));
    const setUp = (costExplorer: boolean) =>
      changeSimulatedCloud(server.dir, (cloud) => {
        const account = connectedAwsAccount({
          serviceAccountId: localServiceAccountId,
          externalId,
          bucket: cur.bucket,
          prefix: cur.prefix,
          reportName: cur.report_name,
        });
        account.permissions.cost_explorer = costExplorer;
        cloud.aws[accountId] = account;
      });
    const verify = () =>
      api(onboarding(childId, 'aws/verify'), {
        method: 'POST',
        apiKey: partnerKey,
        json: { onboarding_id: started.body.onboarding_id, account_id: accountId, existing_cur: cur },
      });
    const costExplorerOf = (response: ApiResponse) =>
      response.body.find((item: { feature: string }) => item.feature === 'cost_explorer_access');
    await setUp(true);

    // Act: verify, then take Cost Explorer away: a call would now be refused
    const first = await verify();
    await setUp(false);
    const second = await verify();
    const third = await verify();

    // Assess: the second and third answer the first's result, so they did not call
    expect(costExplorerOf(first)).toMatchObject({ status: 'available', detail: 'Cost Explorer answered' });
    for (const again of [second, third]) {
      expect(costExplorerOf(again).status).toBe('available');
      expect(costExplorerOf(again).detail).toMatch(
        /^Cost Explorer answered \(checked at \S+Z; .*after \S+Z\)$/,
      );
    }
    const stored = itemAt(await store.snapshot(), costExplorerProbeKey(childId, accountId));
    expect(stored).toMatchObject({
      accountId,
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
      result: { feature: 'cost_explorer_access', status: 'available' },
    });
  });
});

describe('documentation', () => {
  it('documents every status this file saw in the OpenAPI document', async () => {
    expect(await undocumentedAnswers(answered)).toEqual([]);
  });
});
