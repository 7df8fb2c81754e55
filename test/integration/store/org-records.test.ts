import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/domain/errors';
import { orgKey } from '../../../shared/store/keys';
import { startTestTable } from '../../support/dynalite';
import { anOrg } from '../../support/org-records';
import { useTestTable } from '../../support/test-table';

describe('org repository: records', () => {
  const table = useTestTable();

  it('reads back a created org field for field', async () => {
    // Prepare
    const org = anOrg({ partnerSubscriptionId: 'sub-1', parentOrgId: randomUUID() });

    // Act
    await table.store.orgUpdates.create(org);

    // Assess
    expect(await table.store.orgs.get(org.id)).toEqual(org);
  });

  it('reads back an org whose optional fields are all null', async () => {
    // Prepare
    const org = anOrg({
      domain: null,
      primaryAddress: null,
      offerLinks: { aws: null, azure: null, gcp: null },
    });

    // Act
    await table.store.orgUpdates.create(org);

    // Assess
    expect(await table.store.orgs.get(org.id)).toEqual(org);
  });

  it('answers null for an unknown org', async () => {
    expect(await table.store.orgs.get(randomUUID())).toBeNull();
  });

  it('stores the org with its type and version and without attributes for nulls', async () => {
    // Prepare
    const org = anOrg({ domain: null });

    // Act
    await table.store.orgUpdates.create(org);

    // Assess
    const { Item } = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: orgKey(org.id) }),
    );
    expect(Item).toMatchObject({ type: 'org', version: 1, GSI1PK: 'ORGS', GSI1SK: 'acme' });
    expect(Item).not.toHaveProperty('domain');
  });

  it('refuses to create an org whose id exists, keeping the first', async () => {
    // Prepare
    const org = anOrg();
    await table.store.orgUpdates.create(org);

    // Act
    const second = table.store.orgUpdates.create({ ...org, name: 'Other' });

    // Assess
    await expect(second).rejects.toBeInstanceOf(ConflictError);
    expect((await table.store.orgs.get(org.id))?.name).toBe('Acme');
  });

  it('lists every org ordered by name regardless of case', async () => {
    // Prepare
    const { close, store } = await startTestTable();
    const zeta = anOrg({ name: 'zeta' });
    const alpha = anOrg({ name: 'Alpha' });
    const beta = anOrg({ name: 'beta' });
    for (const org of [zeta, alpha, beta]) await store.orgUpdates.create(org);

    // Act
    const names = (await store.orgs.list()).map((org) => org.name);
    await close();

    // Assess
    expect(names).toEqual(['Alpha', 'beta', 'zeta']);
  });
});
