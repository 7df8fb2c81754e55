import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeOrgName } from '../../../shared/domain/orgs';
import { useTestTable } from '../../support/test-table';

describe('org repository', () => {
  const table = useTestTable();

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
});
