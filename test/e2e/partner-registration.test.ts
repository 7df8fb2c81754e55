import { describe, expect, it } from 'vitest';
import { registeredOrganization } from '../../shared/contract/partners';
import { membershipKey, orgKey, userKey } from '../../shared/store/keys';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import { itemAt } from '../support/local-store';
import { links, registrationPath, unique, uniqueDomain, usePartnerTenants } from '../support/partner-tenants';

/**
 * The partner endpoints over HTTP, against the real local server (`npm start`) on a fresh directory:
 * registering a customer org (#14): the two body shapes, a name registered already, racing registrations. One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { api, registerCustomer } = tenants;

describe('registering a customer org (#14)', () => {
  it('registers the reference body with its users, domain, address and links, and stores them', async () => {
    // Prepare
    const name = unique('Acme Corp');
    const domain = uniqueDomain();
    const body = {
      name,
      partner_subscription_id: 'sub-0042',
      users: [
        { email: ` Ops@${domain.toUpperCase()} `, role: 'admin' },
        { email: `finops@${domain}`, role: 'user' },
      ],
      domain: domain.toUpperCase(),
      primary_address: {
        line1: '1 Main Street',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'US',
      },
      ...links,
    };

    // Act
    const response = await api(registrationPath(tenants.partner.orgId), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: body,
    });
    const snapshot = await tenants.store.snapshot();

    // Assess
    expect(response.status).toBe(200);
    const registered = registeredOrganization.parse(response.body);
    expect(response.body).toEqual({
      id: registered.id,
      child_org_id: registered.id,
      name,
      memberships: [
        { role: 'admin', username: `ops@${domain}` },
        { role: 'user', username: `finops@${domain}` },
      ],
      domain,
      primary_address: { ...body.primary_address, line2: null },
      ...links,
    });
    expect(itemAt(snapshot, orgKey(registered.id))).toMatchObject({
      name,
      parentOrgId: tenants.partner.orgId,
      isPartner: false,
      partnerSubscriptionId: 'sub-0042',
    });
    expect(itemAt(snapshot, membershipKey(registered.id, `ops@${domain}`))).toMatchObject({ role: 'admin' });
    expect(itemAt(snapshot, membershipKey(registered.id, `finops@${domain}`))).toMatchObject({
      role: 'user',
    });
    expect(itemAt(snapshot, userKey(`ops@${domain}`))).toBeDefined();
  });

  it('registers the second body shape, making the contact and every listed user an admin', async () => {
    // Prepare
    const name = unique('Beta Ltd');
    const domain = uniqueDomain();

    // Act
    const response = await api(registrationPath(tenants.partner.orgId), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: {
        org_name: name,
        org_email: `Contact@${domain}`,
        user_emails: [`ann@${domain}`, `bob@${domain}`],
        user_names: ['Ann Example', 'Bob Example'],
      },
    });
    const snapshot = await tenants.store.snapshot();

    // Assess
    expect(response.status).toBe(200);
    const registered = registeredOrganization.parse(response.body);
    expect(registered).toEqual({
      id: registered.id,
      child_org_id: registered.id,
      name,
      memberships: [
        { role: 'admin', username: `contact@${domain}` },
        { role: 'admin', username: `ann@${domain}` },
        { role: 'admin', username: `bob@${domain}` },
      ],
      domain: null,
      primary_address: null,
      aws_marketplace_offer_link: null,
      azure_marketplace_offer_link: null,
      gcp_marketplace_offer_link: null,
    });
    expect(itemAt(snapshot, userKey(`ann@${domain}`))).toMatchObject({ name: 'Ann Example' });
  });

  it('answers 409 naming the existing org for a name registered already, whatever its case and spaces', async () => {
    // Prepare
    const name = unique('Gamma Corp');
    const existing = await registerCustomer({ name });
    const variant = `  ${name.toUpperCase().replace(' ', '   ')} `;
    const before = await tenants.store.snapshot();

    // Act
    const referenceForm = await api(registrationPath(tenants.partner.orgId), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { name: variant, users: [{ email: `ops@${uniqueDomain()}`, role: 'admin' }] },
    });
    const secondForm = await api(registrationPath(tenants.partner.orgId), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { org_name: name.toLowerCase() },
    });
    const after = await tenants.store.snapshot();

    // Assess
    const conflict = (given: string) => ({
      code: 409,
      status: 'Conflict',
      message: `An organization named "${given}" is already registered as ${existing.id}`,
      errors: { name: [`already registered as ${existing.id}`] },
    });
    expect(referenceForm.status).toBe(409);
    expect(referenceForm.body).toEqual(conflict(variant.trim()));
    expect(secondForm.status).toBe(409);
    expect(secondForm.body).toEqual(conflict(name.toLowerCase()));
    expect(after).toEqual(before);
  });

  it('registers one org when registrations of a name race, storing nothing of the ones answered 409', async () => {
    // Prepare
    const name = unique('Racing Co');
    const domain = uniqueDomain();
    const emails = ['one', 'two', 'three', 'four', 'five', 'six'].map((user) => `${user}@${domain}`);

    // Act
    const responses = await Promise.all(
      emails.map((email) =>
        api(registrationPath(tenants.partner.orgId), {
          method: 'POST',
          apiKey: tenants.partner.apiKey,
          json: { name, users: [{ email, role: 'admin' }] },
        }),
      ),
    );
    const snapshot = await tenants.store.snapshot();

    // Assess
    const winners = responses.filter((response) => response.status === 200);
    expect(winners).toHaveLength(1);
    const winner = registeredOrganization.parse(winners[0]?.body);
    const losers = responses.filter((response) => response !== winners[0]);
    expect(losers.map((response) => [response.status, response.body.errors])).toEqual(
      losers.map(() => [409, { name: [`already registered as ${winner.id}`] }]),
    );
    const members = snapshot.filter((item) => item.type === 'membership' && item.orgId === winner.id);
    expect(members.map((item) => item.email)).toEqual(winner.memberships.map((member) => member.username));
    const users = emails.filter((email) => itemAt(snapshot, userKey(email)) !== undefined);
    expect(users).toEqual(winner.memberships.map((member) => member.username));
  });
});

describe('the OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
