import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestTable } from '../../support/test-table';

describe('org repository', () => {
  const table = useTestTable();

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
