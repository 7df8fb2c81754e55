import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../../../shared/domain/errors';
import { normalizeOrgName, type Organization } from '../../../shared/domain/orgs';
import { orgKey } from '../../../shared/store/keys';
import { startTestTable, type TestTable } from '../../support/dynalite';

function anOrg(overrides: Partial<Organization> = {}): Organization {
  return {
    id: randomUUID(),
    name: 'Acme',
    domain: 'acme.example',
    primaryAddress: {
      line1: '1 Main St',
      line2: null,
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    },
    offerLinks: { aws: 'https://aws.example/offer', azure: null, gcp: null },
    partnerSubscriptionId: null,
    parentOrgId: null,
    isPartner: false,
    commitmentSharing: 'organization',
    renewalHorizonDays: 30,
    maxUpfrontCost: null,
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    version: 1,
    ...overrides,
  };
}

describe('org repository', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await startTestTable();
  });

  afterAll(async () => {
    await table.close();
  });

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

  describe('child names', () => {
    it('lets the first org claim a name among a partner’s children', async () => {
      // Prepare
      const partnerId = randomUUID();

      // Act
      const claim = await table.store.orgUpdates.claimChildName(
        partnerId,
        normalizeOrgName('Big Co'),
        randomUUID(),
        'registration-1',
      );

      // Assess
      expect(claim).toEqual({ claimed: true });
    });

    it('answers the holder’s id to a second org claiming the same name, whatever its case and spaces', async () => {
      // Prepare
      const partnerId = randomUUID();
      const firstId = randomUUID();
      await table.store.orgUpdates.claimChildName(
        partnerId,
        normalizeOrgName('Big Co'),
        firstId,
        'registration-1',
      );

      // Act
      const claim = await table.store.orgUpdates.claimChildName(
        partnerId,
        normalizeOrgName('  big   CO '),
        randomUUID(),
        'registration-2',
      );

      // Assess
      expect(claim).toEqual({ claimed: false, orgId: firstId, sameRegistration: false });
    });

    it('tells a second claim whether the holder claimed the name for the same registration', async () => {
      // Prepare
      const partnerId = randomUUID();
      const firstId = randomUUID();
      await table.store.orgUpdates.claimChildName(partnerId, 'big co', firstId, 'registration-1');

      // Act
      const claim = await table.store.orgUpdates.claimChildName(
        partnerId,
        'big co',
        randomUUID(),
        'registration-1',
      );

      // Assess
      expect(claim).toEqual({ claimed: false, orgId: firstId, sameRegistration: true });
    });

    it('confirms the claim again to its holder (a retried registration)', async () => {
      // Prepare
      const partnerId = randomUUID();
      const childId = randomUUID();
      await table.store.orgUpdates.claimChildName(partnerId, 'big co', childId, 'registration-1');

      // Act
      const claim = await table.store.orgUpdates.claimChildName(
        partnerId,
        'big co',
        childId,
        'registration-1',
      );

      // Assess
      expect(claim).toEqual({ claimed: true });
    });

    it('keeps names of different partners apart', async () => {
      // Prepare
      await table.store.orgUpdates.claimChildName(randomUUID(), 'big co', randomUUID(), 'registration-1');

      // Act
      const claim = await table.store.orgUpdates.claimChildName(
        randomUUID(),
        'big co',
        randomUUID(),
        'registration-2',
      );

      // Assess
      expect(claim).toEqual({ claimed: true });
    });
  });

  describe('child links', () => {
    it('gets and lists a partner’s links, and only its own', async () => {
      // Prepare
      const partnerId = randomUUID();
      const aLink = (childOrgName: string) => ({
        partnerOrgId: partnerId,
        childOrgId: randomUUID(),
        childOrgName,
        createdAt: '2025-03-04T05:06:07.000Z',
      });
      const one = aLink('One');
      const two = aLink('Two');
      for (const link of [one, two]) await table.store.orgUpdates.putChildLink(link);
      await table.store.orgUpdates.putChildLink({
        ...one,
        partnerOrgId: randomUUID(),
        childOrgId: randomUUID(),
      });
      await table.store.orgUpdates.claimChildName(partnerId, 'one', one.childOrgId, 'registration-1');

      // Act
      const listed = await table.store.orgs.listChildLinks(partnerId);
      const got = await table.store.orgs.getChildLink(partnerId, two.childOrgId);

      // Assess
      expect(listed).toHaveLength(2);
      expect(listed).toEqual(expect.arrayContaining([one, two]));
      expect(got).toEqual(two);
    });

    it('answers null for a child that is not the partner’s', async () => {
      // Prepare
      const partnerId = randomUUID();
      const link = {
        partnerOrgId: randomUUID(),
        childOrgId: randomUUID(),
        childOrgName: 'X',
        createdAt: '2025-01-01T00:00:00.000Z',
      };
      await table.store.orgUpdates.putChildLink(link);

      // Act
      const got = await table.store.orgs.getChildLink(partnerId, link.childOrgId);

      // Assess
      expect(got).toBeNull();
    });

    it('lists no links for a partner without children', async () => {
      expect(await table.store.orgs.listChildLinks(randomUUID())).toEqual([]);
    });
  });
});
