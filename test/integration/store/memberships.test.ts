import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Membership } from '../../../shared/domain/orgs';
import { membershipKey } from '../../../shared/store/keys';
import { startTestTable, type TestTable } from '../../support/dynalite';

function aMembership(overrides: Partial<Membership> = {}): Membership {
  return {
    orgId: randomUUID(),
    email: `${randomUUID()}@example.com`,
    role: 'user',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('membership repository', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await startTestTable();
  });

  afterAll(async () => {
    await table.close();
  });

  it('reads back a membership put under a mixed-case e-mail by its normalized e-mail', async () => {
    // Prepare
    const membership = aMembership({ role: 'admin' });

    // Act
    await table.store.memberships.put({ ...membership, email: ` ${membership.email.toUpperCase()}` });

    // Assess
    expect(await table.store.memberships.get(membership.orgId, membership.email)).toEqual(membership);
  });

  it('replaces a membership put again and counts the writes in its version', async () => {
    // Prepare
    const membership = aMembership();
    await table.store.memberships.put(membership);
    const replaced = { ...membership, role: 'cloud_rep' as const, updatedAt: '2025-02-01T00:00:00.000Z' };

    // Act
    await table.store.memberships.put(replaced);

    // Assess
    expect(await table.store.memberships.get(membership.orgId, membership.email)).toEqual(replaced);
    const { Item } = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: membershipKey(membership.orgId, membership.email) }),
    );
    expect(Item).toMatchObject({ type: 'membership', version: 2 });
  });

  it('answers null for a user who is not a member', async () => {
    expect(await table.store.memberships.get(randomUUID(), 'nobody@example.com')).toBeNull();
  });

  it('lists the memberships of one org only', async () => {
    // Prepare
    const orgId = randomUUID();
    const members = [aMembership({ orgId }), aMembership({ orgId, role: 'support' })];
    for (const membership of [...members, aMembership()]) await table.store.memberships.put(membership);

    // Act
    const listed = await table.store.memberships.listByOrg(orgId);

    // Assess
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(expect.arrayContaining(members));
  });

  it('lists the memberships of one user across orgs through GSI1', async () => {
    // Prepare
    const email = `${randomUUID()}@example.com`;
    const memberships = [aMembership({ email }), aMembership({ email, role: 'restricted_user' })];
    for (const membership of [...memberships, aMembership()]) await table.store.memberships.put(membership);
    await table.store.users.ensure({ email, name: null, createdAt: '2025-01-01T00:00:00.000Z' });

    // Act
    const listed = await table.store.memberships.listByUser(email.toUpperCase());

    // Assess
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(expect.arrayContaining(memberships));
  });
});
