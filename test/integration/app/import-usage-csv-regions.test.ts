import { describe, expect, it } from 'vitest';
import { importUsage } from '../../../shared/app/import-usage';
import { catalogReads, queriedPartitions, storeRecordedCatalog } from '../../support/catalog-reads';
import { recordsOf } from '../../support/csv-records';
import { exportFleet, fleetUsageCsv } from '../../support/export-files';
import { useExportImportStore } from '../../support/export-import-store';

const version = 'csv-regions-test-version';

describe('a usage CSV import of one region', () => {
  const store = useExportImportStore();

  it('reads the stored price list of that region only, and prices its rows with it', async () => {
    // Prepare: a day of the us-east-1 fleet's Linux and MySQL resources (the recorded list prices
    // no Windows m5.xlarge) with every ondemand_price empty, so every price is the catalog's; the
    // catalog stores four regions.
    const lists = await storeRecordedCatalog(store.ctx.repos, version);
    const orgId = await store.newOrg();
    const priced = exportFleet.filter((resource) => resource.operatingSystem !== 'Windows');
    const lines = fleetUsageCsv('2026-06-01T00:00:00Z', 24, priced);
    const partitions = queriedPartitions(store.table);

    // Act
    const summary = await importUsage(store.ctx, { orgId, records: recordsOf(lines) });

    // Assess: of the four stored lists, the us-east-1 one alone was read, and it priced the rows.
    expect(lists.length).toBe(4);
    expect(catalogReads(partitions, lists, version)).toEqual(['aws us-east-1']);
    expect(summary.rows).toBe(lines.length - 1);
    const window = { start: '2026-06-01T00:00:00Z', hours: 24 };
    const stored = await store.ctx.repos.usage.loadUsage(orgId, 'aws', window);
    const m5 = stored.find((stream) => stream.instanceType === 'm5.large');
    const listed = lists
      .find((list) => list.provider === 'aws' && list.region === 'us-east-1')
      ?.instances.find(
        (instance) =>
          instance.instanceType === 'm5.large' &&
          instance.operatingSystem === m5?.operatingSystem &&
          instance.tenancy === 'Shared',
      );
    expect(listed?.ondemand).toBeGreaterThan(0);
    expect(m5?.ondemandPrice).toBe(listed?.ondemand);
  });
});
