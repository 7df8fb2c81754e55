import { describe, expect, it } from 'vitest';
import { catalogReads, queriedPartitions, storeRecordedCatalog } from '../../support/catalog-reads';
import { fleetLineItems } from '../../support/export-files';
import { useExportImportStore } from '../../support/export-import-store';
import { cur2Parquet } from '../../support/export-parquet-files';

const version = 'regions-test-version';

describe('a usage import of one region', () => {
  const store = useExportImportStore();

  it('reads the stored price list of that region only, and prices its rows with it', async () => {
    // Prepare: a month of the us-east-1 fleet whose lines carry no public rate, so every price is
    // the catalog's.
    const lists = await storeRecordedCatalog(store.ctx.repos, version);
    const orgId = await store.newOrg();
    const items = fleetLineItems('2026-06-01T00:00:00Z', 24).map((item) => ({ ...item, rate: 0 }));
    const partitions = queriedPartitions(store.table);

    // Act
    const summary = await store.importFile(orgId, 'june.parquet', cur2Parquet(items));

    // Assess: of the four stored lists, the us-east-1 one alone was read.
    expect(lists.length).toBe(4);
    expect(catalogReads(partitions, lists, version)).toEqual(['aws us-east-1']);
    expect(summary.usedRows).toBeGreaterThan(0);
    const window = { start: '2026-06-01T00:00:00Z', hours: 24 };
    const stored = await store.ctx.repos.usage.loadUsage(orgId, 'aws', window);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((stream) => (stream as { priceSource?: string }).priceSource === 'catalog')).toBe(
      true,
    );
  });
});
