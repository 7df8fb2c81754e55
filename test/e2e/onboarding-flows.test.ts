import { describe, expect, it } from 'vitest';
import { onboardingKey } from '../../shared/store/keys';
import { consentAsAdministrator } from '../support/azure-consent';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import { itemAt } from '../support/local-store';
import {
  allAvailable,
  awsFeatures,
  azureFeatures,
  cur,
  deployedAwsAccount,
  onboarding,
  onboardingCalls,
  simulatedAzureTenant,
  statuses,
} from '../support/onboarding-calls';
import { unique, usePartnerTenants } from '../support/partner-tenants';

/**
 * Onboarding (#16-#21) over HTTP against the real local server on the simulated cloud: the partner's whole flow for a child org, its list of children, and an org admin onboarding its own org.
 * One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { api } = tenants;
const { registerChild, start, verifyAws, newAccountId } = onboardingCalls(tenants);

describe('the partner flow', () => {
  it('registers a child, connects its AWS account and Azure tenant, and lists it with available checklists', async () => {
    // Prepare
    const childId = await registerChild();
    const accountId = newAccountId();

    // Act
    const onboardingId = await start(childId);
    const again = await start(childId);
    const template = await api(onboarding(childId, 'aws/cloudformation_template'), {
      apiKey: tenants.partner.apiKey,
    });
    // The customer deploys the template: the operator CLI sets the simulated account up so.
    await deployedAwsAccount(tenants.server.dir, accountId, childId);
    const awsChecks = await verifyAws(childId, {
      onboarding_id: onboardingId,
      account_id: accountId,
      existing_cur: cur,
    });
    const { tenantId, subscriptionId } = await simulatedAzureTenant(tenants.server.dir);
    const authUrl = await api(onboarding(childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { tenant_id: tenantId, subscription_id: subscriptionId },
    });
    const consentPage = await fetch(authUrl.body.url);
    const consented = await consentAsAdministrator(authUrl.body.url, tenantId);
    const azureChecks = await api(onboarding(childId, 'azure/verify'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
    });
    const children = await api(`${onboarding(tenants.partner.orgId, 'child-orgs')}?page_size=100`, {
      apiKey: tenants.partner.apiKey,
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
    const children = await api(onboarding(tenants.partner.orgId, 'child-orgs'), {
      apiKey: tenants.partner.apiKey,
    });

    // Assess
    const demo = children.body.find((child: { org_id: string }) => child.org_id === tenants.customer.orgId);
    expect(statuses(demo.integration_checklist.aws)).toMatchObject(allAvailable(awsFeatures));
    expect(statuses(demo.integration_checklist.azure)).toMatchObject(allAvailable(azureFeatures));
  });

  it('pages the children with X-Pagination, each unverified provider unknown', async () => {
    // Prepare
    const other = await api(onboarding(tenants.secondPartner.orgId, 'register_child'), {
      method: 'POST',
      apiKey: tenants.secondPartner.apiKey,
      json: { company: unique('First') },
    });
    await api(onboarding(tenants.secondPartner.orgId, 'register_child'), {
      method: 'POST',
      apiKey: tenants.secondPartner.apiKey,
      json: { company: unique('Second') },
    });

    // Act
    const firstPage = await api(
      `${onboarding(tenants.secondPartner.orgId, 'child-orgs')}?page=1&page_size=1`,
      {
        apiKey: tenants.secondPartner.apiKey,
      },
    );

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

describe('an org admin', () => {
  it("runs its own org's onboarding and verify, and never sees the external id outside the template", async () => {
    // Act
    const onboardingId = await start(tenants.customer.orgId, tenants.customer.apiKey);
    const { aws } = tenants.server.credentials.cloud ?? { aws: null };
    const response = await verifyAws(
      tenants.customer.orgId,
      { onboarding_id: onboardingId, account_id: aws?.account_id, existing_cur: aws?.existing_cur },
      tenants.customer.apiKey,
    );
    const stored = itemAt(await tenants.store.snapshot(), onboardingKey(tenants.customer.orgId));

    // Assess
    expect(statuses(response.body)).toEqual(allAvailable(awsFeatures));
    expect(JSON.stringify(response.body)).not.toContain(String(stored?.externalId));
  });
});

describe('documentation', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
