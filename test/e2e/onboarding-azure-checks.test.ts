import { describe, expect, it } from 'vitest';
import { consentAsAdministrator } from '../support/azure-consent';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import { onboarding, onboardingCalls, simulatedAzureTenant, statuses } from '../support/onboarding-calls';
import { usePartnerTenants } from '../support/partner-tenants';

/**
 * Onboarding (#16-#21) over HTTP against the real local server on the simulated cloud: the Azure checks before and after an administrator's consent.
 * One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { api } = tenants;
const { registerChild } = onboardingCalls(tenants);

describe('Azure checks', () => {
  it('answers admin_consent missing before an administrator of the tenant signed in, calling no cloud', async () => {
    // Prepare
    const childId = await registerChild();
    const { tenantId, subscriptionId } = await simulatedAzureTenant(tenants.server.dir);
    await api(onboarding(childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { tenant_id: tenantId, subscription_id: subscriptionId },
    });

    // Act
    const response = await api(onboarding(childId, 'azure/verify'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
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
    const { tenantId, subscriptionId } = await simulatedAzureTenant(tenants.server.dir, [
      '--roles',
      'Reader,Cost Management Reader,Savings plan Purchaser',
    ]);
    const authUrl = await api(onboarding(childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { tenant_id: tenantId, subscription_id: subscriptionId },
    });
    expect(await (await consentAsAdministrator(authUrl.body.url, tenantId)).text()).toContain(
      'Access granted',
    );

    // Act
    const response = await api(onboarding(childId, 'azure/verify'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
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
    const { tenantId, subscriptionId } = await simulatedAzureTenant(tenants.server.dir);
    const authUrl = await api(onboarding(childId, 'azure/auth-url'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { tenant_id: tenantId, subscription_id: subscriptionId },
    });

    // Act
    const refused = await fetch(`${authUrl.body.url}&decision=decline`);
    const response = await api(onboarding(childId, 'azure/verify'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
    });

    // Assess
    expect(await refused.text()).toContain('Access not granted');
    expect(response.body[0]).toMatchObject({ feature: 'admin_consent', status: 'missing' });
    expect(response.body[0].detail).toContain('AADSTS65004');
  });
});

describe('documentation', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
