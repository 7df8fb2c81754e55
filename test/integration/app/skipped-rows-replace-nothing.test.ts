import { describe, expect, it } from 'vitest';
import { useExportImportStore } from '../../support/export-import-store';
import { focusCsv, focusSampleRecord, focusSampleRecords } from '../../support/focus-sample';

const store = useExportImportStore();

/** September 2024, the sample's month. */
const september = { start: '2024-09-01T00:00:00Z', hours: 720 };
const HOUR_MS = 3_600_000;

/** The sample's on-demand c5.2xlarge hour, as another instance in another hour. */
function c5Hour(resourceId: string, start: string) {
  const end = new Date(Date.parse(`${start.replace(' ', 'T')}Z`) + HOUR_MS).toISOString();
  return {
    ...focusSampleRecord('$0.34 per On Demand Linux c5.2xlarge Instance Hour'),
    ResourceId: resourceId,
    ChargePeriodStart: start,
    ChargePeriodEnd: end.slice(0, 19).replace('T', ' '),
  };
}

/** An hour of an instance type neither the catalog nor the row prices: skipped as `no_price`. */
function unpricedHour(resourceId: string, start: string) {
  return {
    ...c5Hour(resourceId, start),
    ChargeDescription: '$1.0 per On Demand Linux zz9.large Instance Hour',
    ListUnitPrice: 'NULL',
    ListCost: 'NULL',
  };
}

async function storedUsage(orgId: string) {
  const streams = await store.ctx.repos.usage.loadUsage(orgId, 'aws', september);
  return new Map(streams.map((stream) => [stream.resourceId, [...stream.usage]]));
}

describe('rows an import skips replace no stored hours', () => {
  it('replaces only the hours of the rows it stores, not those of a skipped row before them', async () => {
    // Prepare: the whole sample stored, 26 instances over September.
    const orgId = await store.newOrg();
    await store.importFile(orgId, 'sample.csv', focusCsv(focusSampleRecords()));
    const before = await storedUsage(orgId);

    // Act: one hour skipped on the 29th, then one used on the 2nd.
    const summary = await store.importFile(
      orgId,
      'second.csv',
      focusCsv([
        unpricedHour('i-0zz9', '2024-09-29 00:00:00'),
        c5Hour('i-0new000000000001', '2024-09-02 00:00:00'),
      ]),
    );

    // Assess
    expect(summary.skipped.no_price).toBe(1);
    expect(summary.providers).toMatchObject([
      { provider: 'aws', firstHour: '2024-09-02T00:00:00Z', lastHour: '2024-09-02T00:00:00Z', hours: 1 },
    ]);
    const after = await storedUsage(orgId);
    const replacedHour = 24; // 2024-09-02T00, from the window's start
    for (const [resourceId, hours] of before) {
      const kept = after.get(resourceId) ?? [];
      expect(kept.filter((_, hour) => hour !== replacedHour)).toEqual(
        hours.filter((_, hour) => hour !== replacedHour),
      );
    }
    expect(after.get('i-0new000000000001')?.[replacedHour]).toBe(1);
  });

  it('stores nothing, replaces nothing and raises no version for a file of which no row is stored', async () => {
    // Prepare
    const orgId = await store.newOrg();
    await store.importFile(orgId, 'sample.csv', focusCsv(focusSampleRecords()));
    const before = await storedUsage(orgId);
    const stateBefore = await store.ctx.repos.usage.usageState(orgId, 'aws');

    // Act
    const summary = await store.importFile(
      orgId,
      'unpriced.csv',
      focusCsv([
        unpricedHour('i-0zz9', '2024-09-03 00:00:00'),
        unpricedHour('i-0zz9', '2024-09-28 00:00:00'),
      ]),
    );

    // Assess
    expect(summary.usedRows).toBe(0);
    expect(summary.providers).toEqual([]);
    expect(await storedUsage(orgId)).toEqual(before);
    expect((await store.ctx.repos.usage.usageState(orgId, 'aws'))?.usageVersion).toBe(
      stateBefore?.usageVersion,
    );
  });
});
