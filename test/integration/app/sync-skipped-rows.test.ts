import { describe, expect, it } from 'vitest';
import { syncUsage } from '../../../shared/app/usage-sync';
import { usageSyncCheck } from '../../../shared/domain/onboarding/usage-sync-check';
import { focusCsv, focusSampleRecords, spreadsheetResavedSample } from '../../support/focus-sample';
import { useUsageSyncStore } from '../../support/usage-sync-store';

const store = useUsageSyncStore(310000000000);

describe('what a usage sync skipped', () => {
  it('reaches the summary and the checklist, which warns when no row of the files could be used', async () => {
    // Prepare
    const { orgId, accountId } = await store.connectedOrg();
    const { key } = await store.deliver(accountId, 'focus.csv', spreadsheetResavedSample(), '2024-09');

    // Act
    const synced = await syncUsage(store.syncCtx, { orgId, provider: 'aws' });
    const item = usageSyncCheck(await store.ctx.repos.usageSyncStates.get(orgId, 'aws'));

    // Assess
    expect(synced.rows).toBe(1000);
    expect(synced.usedRows).toBe(0);
    expect(synced.skipped.counts.invalid).toBeGreaterThan(0);
    expect(synced.skipped.examples.invalid).toMatchObject({ file: key, row: expect.any(Number) });
    expect(synced.skipped.examples.invalid?.values).toMatch(/ChargePeriodStart=\d{1,2}\/\d{1,2}\/2024 /);
    expect(item.status).toBe('warning');
    expect(item.detail).toContain('none of the 1000 rows read could be used; skipped: ');
    expect(item.detail).toContain(
      `invalid ${synced.skipped.counts.invalid} (first: ${key} row ${synced.skipped.examples.invalid?.row}: `,
    );
  });

  it('is available when rows were used, still naming what was skipped', async () => {
    // Prepare
    const { orgId, accountId } = await store.connectedOrg();
    await store.deliver(accountId, 'focus.csv', focusCsv(focusSampleRecords()), '2024-09');

    // Act
    const synced = await syncUsage(store.syncCtx, { orgId, provider: 'aws' });
    const item = usageSyncCheck(await store.ctx.repos.usageSyncStates.get(orgId, 'aws'));

    // Assess
    expect(synced.usedRows).toBeGreaterThan(0);
    expect(item.status).toBe('available');
    expect(item.detail).toContain(`: 1000 rows read, ${synced.usedRows} used; skipped: not_usage `);
  });
});
