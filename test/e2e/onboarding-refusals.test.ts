import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/api-client';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import { cur, onboarding, onboardingCalls } from '../support/onboarding-calls';
import { unique, usePartnerTenants } from '../support/partner-tenants';

/**
 * Onboarding (#16-#21) over HTTP against the real local server on the simulated cloud: every refusal leaves the store unchanged.
 * One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { api } = tenants;
const { registerChild, start, verifyAws } = onboardingCalls(tenants);

describe('refusals leave the store unchanged', () => {
  async function unchanged(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const before = await tenants.store.snapshot();
    const response = await request();
    expect(await tenants.store.snapshot()).toEqual(before);
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
      api(onboarding(childId, 'start'), { method: 'POST', apiKey: tenants.secondPartner.apiKey }),
    );
    const support = await unchanged(() =>
      api(onboarding(tenants.customer.orgId, 'start'), { method: 'POST', apiKey: tenants.supportKey }),
    );
    const customerListing = await unchanged(() =>
      api(onboarding(tenants.customer.orgId, 'child-orgs'), { apiKey: tenants.customer.apiKey }),
    );
    const customerRegistering = await unchanged(() =>
      api(onboarding(tenants.customer.orgId, 'register_child'), {
        method: 'POST',
        apiKey: tenants.customer.apiKey,
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
    await api(onboarding(tenants.partner.orgId, 'register_child'), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { company },
    });

    // Act
    const duplicate = await unchanged(() =>
      api(onboarding(tenants.partner.orgId, 'register_child'), {
        method: 'POST',
        apiKey: tenants.partner.apiKey,
        json: { company },
      }),
    );
    const badEmail = await unchanged(() =>
      api(onboarding(tenants.partner.orgId, 'register_child'), {
        method: 'POST',
        apiKey: tenants.partner.apiKey,
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

describe('documentation', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
