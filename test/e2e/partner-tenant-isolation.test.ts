import { describe, expect, it } from 'vitest';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import {
  invitesPath,
  links,
  orgNotFound,
  registrationPath,
  unique,
  uniqueDomain,
  usePartnerTenants,
} from '../support/partner-tenants';

/**
 * The partner endpoints over HTTP, against the real local server (`npm start`) on a fresh directory:
 * what a second partner, a support member and a revoked key may not do. One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { api, registerCustomer, patchSettings } = tenants;

describe('tenant isolation', () => {
  it("hides the first partner's customer org from a second partner's invites", async () => {
    // Prepare
    const child = await registerCustomer();
    const invite = { users: [{ email: `intruder@${uniqueDomain()}`, role: 'admin' }] };
    const before = await tenants.store.snapshot();

    // Act
    const underOwnId = await api(invitesPath(tenants.secondPartner.orgId, child.id), {
      method: 'POST',
      apiKey: tenants.secondPartner.apiKey,
      json: invite,
    });
    const underFirstPartnersId = await api(invitesPath(tenants.partner.orgId, child.id), {
      method: 'POST',
      apiKey: tenants.secondPartner.apiKey,
      json: invite,
    });
    const after = await tenants.store.snapshot();

    // Assess
    expect(underOwnId.status).toBe(404);
    expect(underOwnId.body).toEqual(orgNotFound(child.id));
    expect(underFirstPartnersId.status).toBe(404);
    expect(underFirstPartnersId.body).toEqual(orgNotFound(tenants.partner.orgId));
    expect(after).toEqual(before);
  });

  it("hides the first partner's customer org from a second partner's settings update", async () => {
    // Prepare
    const child = await registerCustomer();
    const before = await tenants.store.snapshot();

    // Act
    const response = await patchSettings(child.id, tenants.secondPartner.apiKey, links);
    const after = await tenants.store.snapshot();

    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual(orgNotFound(child.id));
    expect(after).toEqual(before);
  });

  it("answers 404 to a second partner registering under the first partner's id, but not under its own", async () => {
    // Prepare
    const name = unique('Shared Name');
    await registerCustomer({ name });
    const before = await tenants.store.snapshot();

    // Act
    const underFirstPartnersId = await api(registrationPath(tenants.partner.orgId), {
      method: 'POST',
      apiKey: tenants.secondPartner.apiKey,
      json: { name: unique('Poached') },
    });
    const after = await tenants.store.snapshot();
    const underOwnId = await api(registrationPath(tenants.secondPartner.orgId), {
      method: 'POST',
      apiKey: tenants.secondPartner.apiKey,
      json: { name },
    });

    // Assess
    expect(underFirstPartnersId.status).toBe(404);
    expect(underFirstPartnersId.body).toEqual(orgNotFound(tenants.partner.orgId));
    expect(after).toEqual(before);
    expect(underOwnId.status).toBe(200);
    expect(underOwnId.body).toMatchObject({ name });
  });

  it("answers 403 to a support member updating its own org's settings, and changes nothing", async () => {
    // Prepare
    const before = await tenants.store.snapshot();

    // Act
    const response = await patchSettings(tenants.customer.orgId, tenants.supportKey, links);
    const after = await tenants.store.snapshot();

    // Assess
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 403,
      status: 'Forbidden',
      message: `Your role may not perform this operation on organization ${tenants.customer.orgId}`,
      errors: {},
    });
    expect(after).toEqual(before);
  });
});

describe('the OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
