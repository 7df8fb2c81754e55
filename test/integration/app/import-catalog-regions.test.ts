import { describe, expect, it } from 'vitest';
import { summarizeRegion } from '../../../shared/domain/catalog/refresh-checks';
import { catalogRegionPartition } from '../../../shared/store/keys';
import { fleetLineItems } from '../../support/export-files';
import { useExportImportStore } from '../../support/export-import-store';
import { cur2Parquet } from '../../support/export-parquet-files';
import { fixturePriceLists } from '../../support/price-list-fixtures';

const version = 'regions-test-version';

describe('a usage import of one region', () => {
  const store = useExportImportStore();

  /** Stores the recorded price lists (aws us-east-1 and eu-west-2, azure eastus and westeurope) as the current catalog. */
  async function storeRecordedCatalog() {
    const lists = await fixturePriceLists();
    for (const list of lists) await store.ctx.repos.catalog.putRegion(version, list);
    await store.ctx.repos.catalog.setCurrent({
      version,
      regions: lists.map((list) => ({ ...summarizeRegion(list), storedIn: version })),
    });
    return lists;
  }

  /** Records the partition of every query the table answers from now on. */
  function queriedPartitions(): string[] {
    const partitions: string[] = [];
    store.table.client.middlewareStack.add(
      (next) => async (args) => {
        const values = (args.input as { ExpressionAttributeValues?: Record<string, unknown> })
          .ExpressionAttributeValues;
        if (typeof values?.[':pk'] === 'string') partitions.push(values[':pk']);
        return next(args);
      },
      { step: 'initialize', name: 'queriedPartitions' },
    );
    return partitions;
  }

  it('reads the stored price list of that region only, and prices its rows with it', async () => {
    // Prepare: a month of the us-east-1 fleet whose lines carry no public rate, so every price is
    // the catalog's.
    const lists = await storeRecordedCatalog();
    const orgId = await store.newOrg();
    const items = fleetLineItems('2026-06-01T00:00:00Z', 24).map((item) => ({ ...item, rate: 0 }));
    const partitions = queriedPartitions();

    // Act
    const summary = await store.importFile(orgId, 'june.parquet', cur2Parquet(items));

    // Assess: of the four stored lists, the us-east-1 one alone was read.
    const catalogReads = lists
      .map((list) => ({ list, partition: catalogRegionPartition(version, list.provider, list.region) }))
      .filter(({ partition }) => partitions.includes(partition))
      .map(({ list }) => `${list.provider} ${list.region}`);
    expect(lists.length).toBe(4);
    expect(catalogReads).toEqual(['aws us-east-1']);
    expect(summary.usedRows).toBeGreaterThan(0);
    const window = { start: '2026-06-01T00:00:00Z', hours: 24 };
    const stored = await store.ctx.repos.usage.loadUsage(orgId, 'aws', window);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((stream) => (stream as { priceSource?: string }).priceSource === 'catalog')).toBe(
      true,
    );
  });
});
