import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/errors';
import { useExportImportStore } from '../../support/export-import-store';
import { legacyCurParquet, workshopFleet, workshopRows } from '../../support/legacy-cur-parquet';

const store = useExportImportStore();

const october = '2018-10-01T00:00:00Z';
const HOURS = 48;
const window = { start: october, hours: HOURS };

describe('the legacy CUR in Parquet, as AWS delivers it for Athena', () => {
  it('is read as the legacy CUR, each instance in its own region at its listed rate', async () => {
    // Prepare: six instances in us-east-1 and eu-west-2, two days, with storage and tax lines.
    const orgId = await store.newOrg();
    const file = legacyCurParquet(workshopRows(october, HOURS), 100);

    // Act
    const summary = await store.importFile(orgId, 'Oct2018-WorkshopCUR-00001.snappy.parquet', file);

    // Assess
    expect(summary.format).toBe('cur');
    expect(summary.usedRows).toBe(workshopFleet.length * HOURS);
    expect(summary.skipped.not_instance_hours).toBe(HOURS);
    expect(summary.skipped.not_usage).toBe(HOURS);
    const stored = await store.ctx.repos.usage.loadUsage(orgId, 'aws', window);
    expect(
      stored.map(({ resourceId, region, instanceType, operatingSystem, ondemandPrice }) => ({
        resourceId,
        region,
        instanceType,
        operatingSystem,
        ondemandPrice,
      })),
    ).toEqual(
      workshopFleet.map((instance) => ({
        resourceId: instance.resourceId,
        region: instance.region,
        instanceType: instance.instanceType,
        operatingSystem: instance.operatingSystem,
        ondemandPrice: Number(instance.rate),
      })),
    );
    for (const stream of stored) expect([...stream.usage]).toEqual(new Array(HOURS).fill(1));
  });

  it('refuses a file with an instance-hour without a region, naming the row and the column, storing nothing', async () => {
    // Prepare: the eleventh row (the second hour's third instance) lost its region.
    const orgId = await store.newOrg();
    const rows = workshopRows(october, 2);
    rows[10] = { ...rows[10], product_region: '' };

    // Act
    const imported = store.importFile(orgId, 'no-region.parquet', legacyCurParquet(rows));

    // Assess
    await expect(imported).rejects.toBeInstanceOf(ValidationError);
    await expect(imported).rejects.toThrow(
      `row 11 (counted from 1 after the header): the AmazonEC2 instance-hour of ${workshopFleet[2]?.resourceId} has no region (column product/regionCode, product_region_code, product/region, product_region is empty)`,
    );
    expect(await store.ctx.repos.usage.usageState(orgId, 'aws')).toBeNull();
  });
});
