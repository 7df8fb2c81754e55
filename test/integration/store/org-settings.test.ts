import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../shared/domain/errors';
import { orgKey } from '../../../shared/store/keys';
import { anOrg } from '../../support/org-records';
import { useTestTable } from '../../support/test-table';

describe('org repository: settings', () => {
  const table = useTestTable();

  it('sets the offer links given, keeps the others, and counts the write in the version', async () => {
    // Prepare
    const org = anOrg();
    await table.store.orgUpdates.create({
      ...org,
      offerLinks: { aws: null, azure: null, gcp: 'https://gcp.example/x' },
    });

    // Act
    const updated = await table.store.orgUpdates.setOfferLinks(
      org.id,
      { aws: 'https://aws.example/offer', gcp: null },
      '2025-02-01T00:00:00.000Z',
    );

    // Assess
    expect(updated.offerLinks).toEqual({ aws: 'https://aws.example/offer', azure: null, gcp: null });
    expect(updated).toMatchObject({ updatedAt: '2025-02-01T00:00:00.000Z', version: org.version + 1 });
    expect(await table.store.orgs.get(org.id)).toEqual(updated);
  });

  it('loses no link when several are set at once', async () => {
    // Prepare
    const org = anOrg();
    await table.store.orgUpdates.create(org);
    const at = '2025-02-01T00:00:00.000Z';

    // Act
    await Promise.all([
      table.store.orgUpdates.setOfferLinks(org.id, { aws: 'https://aws.example/a' }, at),
      table.store.orgUpdates.setOfferLinks(org.id, { azure: 'https://azure.example/b' }, at),
      table.store.orgUpdates.setOfferLinks(org.id, { gcp: 'https://gcp.example/c' }, at),
    ]);

    // Assess
    expect(await table.store.orgs.get(org.id)).toMatchObject({
      offerLinks: {
        aws: 'https://aws.example/a',
        azure: 'https://azure.example/b',
        gcp: 'https://gcp.example/c',
      },
      version: org.version + 3,
    });
  });

  it('answers a NotFoundError when setting links of an unknown org', async () => {
    await expect(
      table.store.orgUpdates.setOfferLinks(anOrg().id, { aws: null }, '2025-01-01T00:00:00.000Z'),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sets the commitment sharing scope, counting the write in the version', async () => {
    // Prepare
    const org = anOrg();
    await table.store.orgUpdates.create(org);

    // Act
    const updated = await table.store.orgUpdates.setCommitmentSharing(
      org.id,
      'account',
      '2025-02-01T00:00:00.000Z',
    );

    // Assess
    expect(updated).toEqual({
      ...org,
      commitmentSharing: 'account',
      updatedAt: '2025-02-01T00:00:00.000Z',
      version: 2,
    });
    expect(await table.store.orgs.get(org.id)).toEqual(updated);
  });

  it('reads an org stored before the sharing scope existed as sharing across the org', async () => {
    // Prepare: the item as it was stored before.
    const org = anOrg();
    await table.store.orgUpdates.create(org);
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: orgKey(org.id),
        UpdateExpression: 'REMOVE commitmentSharing',
      }),
    );

    // Act
    const read = await table.store.orgs.get(org.id);

    // Assess
    expect(read?.commitmentSharing).toBe('organization');
  });

  it('sets the renewal horizon, counting the write in the version', async () => {
    // Prepare
    const org = anOrg();
    await table.store.orgUpdates.create(org);

    // Act
    const updated = await table.store.orgUpdates.setRenewalHorizonDays(
      org.id,
      45,
      '2025-02-01T00:00:00.000Z',
    );

    // Assess
    expect(updated).toEqual({
      ...org,
      renewalHorizonDays: 45,
      updatedAt: '2025-02-01T00:00:00.000Z',
      version: 2,
    });
    expect(await table.store.orgs.get(org.id)).toEqual(updated);
  });

  it('reads an org stored before the renewal horizon existed with the 30-day default', async () => {
    // Prepare: the item as it was stored before.
    const org = anOrg({ renewalHorizonDays: 7 });
    await table.store.orgUpdates.create(org);
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: orgKey(org.id),
        UpdateExpression: 'REMOVE renewalHorizonDays',
      }),
    );

    // Act
    const read = await table.store.orgs.get(org.id);

    // Assess
    expect(read?.renewalHorizonDays).toBe(30);
  });

  it('answers a NotFoundError when setting the sharing scope of an unknown org', async () => {
    await expect(
      table.store.orgUpdates.setCommitmentSharing(randomUUID(), 'account', '2025-02-01T00:00:00.000Z'),
    ).rejects.toThrow(NotFoundError);
  });
});
