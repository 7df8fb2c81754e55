import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deliverSimulatedAwsFile, setSimulatedAwsCommitments } from '../../../local/simulated-usage-sources';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { syncUsage } from '../../../shared/app/usage-sync';
import type { ExistingCommitment } from '../../../shared/domain/engine/shapes/model';
import { fleetLineItems } from '../../support/export-files';
import { cur2Parquet } from '../../support/export-parquet-files';
import { useUsageSyncStore } from '../../support/usage-sync-store';

const store = useUsageSyncStore(320000000000);

const reservationOf = (accountId: string, quantity: number): ExistingCommitment => ({
  id: 'ri-owned-1',
  provider: 'aws',
  accountId,
  region: 'us-east-1',
  contractType: 'standard_ris',
  instanceType: 'm5.large',
  quantity,
  hourlyCommitment: 0,
  upfrontCost: 0,
  recurringCost: 0.05 * quantity,
  start: '2026-01-01T00:00:00.000Z',
  end: '2027-01-01T00:00:00.000Z',
  lockinEnd: '2027-01-01T00:00:00.000Z',
  operatingSystem: 'Linux',
  tenancy: 'Shared',
});

async function planState(orgId: string) {
  const plans = await listDefaultPlans(store.ctx, { kind: 'partner', orgId, scopes: ['*'] }, orgId, 'aws');
  const state = await store.ctx.repos.usage.usageState(orgId, 'aws');
  return { planIds: plans.map((plan) => plan.id), usageVersion: state?.usageVersion };
}

describe('a usage sync that reads nothing new', () => {
  it('changes nothing: the same plans stay current, the plan-inputs version stays', async () => {
    // Prepare: a month synced with the account's reservation, and its plans computed.
    const { orgId, accountId } = await store.connectedOrg();
    await store.deliver(
      accountId,
      'june.parquet',
      cur2Parquet(fleetLineItems('2026-06-01T00:00:00Z', 720)),
      '2026-06',
    );
    await setSimulatedAwsCommitments(store.dir, accountId, [reservationOf(accountId, 1)]);
    await syncUsage(store.syncCtx, { orgId, provider: 'aws' });
    const before = await planState(orgId);

    // Act
    const again = await syncUsage(store.syncCtx, { orgId, provider: 'aws' });

    // Assess
    expect(again).toMatchObject({ filesRead: 0, commitments: 1 });
    expect(before.planIds.length).toBeGreaterThan(0);
    expect(await planState(orgId)).toEqual(before);
  });

  it('changes nothing when a period is delivered again with the same rows in new files', async () => {
    // Prepare: June synced and planned.
    const { orgId, accountId } = await store.connectedOrg();
    const june = fleetLineItems('2026-06-01T00:00:00Z', 720);
    await store.deliver(accountId, 'june.parquet', cur2Parquet(june), '2026-06');
    await syncUsage(store.syncCtx, { orgId, provider: 'aws' });
    const before = await planState(orgId);

    // Act: AWS rewrote the period's file (its rows in another order: other bytes, another ETag).
    const again = join(store.dir, 'june-again.parquet');
    await writeFile(again, cur2Parquet([...june].reverse()));
    await deliverSimulatedAwsFile(store.dir, accountId, again, '2026-06', true);
    const synced = await syncUsage(store.syncCtx, { orgId, provider: 'aws' });

    // Assess: the file was read again, and stored nothing new.
    expect(synced).toMatchObject({ filesRead: 1 });
    expect(before.planIds.length).toBeGreaterThan(0);
    expect(await planState(orgId)).toEqual(before);
  });

  it('raises the version when the owned commitments changed', async () => {
    // Prepare
    const { orgId, accountId } = await store.connectedOrg();
    await store.deliver(
      accountId,
      'june.parquet',
      cur2Parquet(fleetLineItems('2026-06-01T00:00:00Z', 720)),
      '2026-06',
    );
    await setSimulatedAwsCommitments(store.dir, accountId, [reservationOf(accountId, 1)]);
    await syncUsage(store.syncCtx, { orgId, provider: 'aws' });
    const before = await planState(orgId);

    // Act: the reservation was modified to two instances.
    await setSimulatedAwsCommitments(store.dir, accountId, [reservationOf(accountId, 2)]);
    await syncUsage(store.syncCtx, { orgId, provider: 'aws' });

    // Assess
    const after = await planState(orgId);
    expect(after.usageVersion).toBeGreaterThan(before.usageVersion ?? 0);
    expect(after.planIds).not.toEqual(before.planIds);
    expect((await store.ctx.repos.commitments.listCommitments(orgId, 'aws'))[0]?.quantity).toBe(2);
  });
});
