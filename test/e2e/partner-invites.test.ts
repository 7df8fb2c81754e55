import { describe, expect, it } from 'vitest';
import { membershipKey, userKey } from '../../shared/store/keys';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import { itemAt } from '../support/local-store';
import { invitesPath, uniqueDomain, usePartnerTenants } from '../support/partner-tenants';

/**
 * The partner endpoints over HTTP, against the real local server (`npm start`) on a fresh directory:
 * inviting users to a customer org (#15). One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { api, registerCustomer } = tenants;

describe('inviting users to a customer org (#15)', () => {
  it('creates the users who are new and makes them members with their roles', async () => {
    // Prepare
    const child = await registerCustomer();
    const domain = uniqueDomain();

    // Act
    const response = await api(invitesPath(tenants.partner.orgId, child.id), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: {
        users: [
          { email: `Dev@${domain}`, role: 'user' },
          { email: `help@${domain}`, role: 'support' },
        ],
      },
    });
    const snapshot = await tenants.store.snapshot();

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { role: 'user', username: `dev@${domain}` },
      { role: 'support', username: `help@${domain}` },
    ]);
    expect(itemAt(snapshot, userKey(`dev@${domain}`))).toBeDefined();
    expect(itemAt(snapshot, userKey(`help@${domain}`))).toBeDefined();
    expect(itemAt(snapshot, membershipKey(child.id, `dev@${domain}`))).toMatchObject({ role: 'user' });
    expect(itemAt(snapshot, membershipKey(child.id, `help@${domain}`))).toMatchObject({ role: 'support' });
  });

  it('leaves a member invited again with the same role exactly as it was', async () => {
    // Prepare
    const email = `ops@${uniqueDomain()}`;
    const child = await registerCustomer({ users: [{ email, role: 'admin' }] });
    const before = await tenants.store.snapshot();

    // Act
    const response = await api(invitesPath(tenants.partner.orgId, child.id), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { users: [{ email: email.toUpperCase(), role: 'admin' }] },
    });
    const after = await tenants.store.snapshot();

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ role: 'admin', username: email }]);
    expect(after).toEqual(before);
  });

  it('gives a member invited with another role that role, keeping when it joined', async () => {
    // Prepare
    const email = `ops@${uniqueDomain()}`;
    const child = await registerCustomer({ users: [{ email, role: 'admin' }] });
    const joined = itemAt(await tenants.store.snapshot(), membershipKey(child.id, email));

    // Act
    const response = await api(invitesPath(tenants.partner.orgId, child.id), {
      method: 'POST',
      apiKey: tenants.partner.apiKey,
      json: { users: [{ email, role: 'restricted_user' }] },
    });
    const updated = itemAt(await tenants.store.snapshot(), membershipKey(child.id, email));

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ role: 'restricted_user', username: email }]);
    expect(updated).toMatchObject({ role: 'restricted_user', createdAt: joined?.createdAt });
  });
});

describe('the OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
