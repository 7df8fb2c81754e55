import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { useExportImportStore } from '../../support/export-import-store';
import { type LegacyCurRow, legacyCurParquet, workshopRows } from '../../support/legacy-cur-parquet';

const store = useExportImportStore();

const october = '2018-10-01T00:00:00Z';

describe('where a stored on-demand price came from', () => {
  it("is the bill's public rate where the row has one, the catalog's where only it has one, no_price where neither does", async () => {
    // Prepare: the m5.xlarge (in the catalog) and the t2.micro (not in it) rows lose their rate.
    const orgId = await store.newOrg();
    const unrated = new Set(['m5.xlarge', 't2.micro']);
    const rows: LegacyCurRow[] = workshopRows(october, 2).map((row) =>
      unrated.has(String(row.product_instance_type)) ? { ...row, pricing_public_on_demand_rate: '' } : row,
    );
    const catalogPrice = loadCatalog().ondemandPrice({
      provider: 'aws',
      region: 'us-east-1',
      instanceType: 'm5.xlarge',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    });

    // Act
    const summary = await store.importFile(orgId, 'rates.parquet', legacyCurParquet(rows));

    // Assess
    expect(catalogPrice).toBeGreaterThan(0);
    expect(summary.skipped.no_price).toBe(2);
    const stored = await store.ctx.repos.usage.loadUsage(orgId, 'aws', { start: october, hours: 2 });
    const sources = Object.fromEntries(
      stored.map((stream) => [
        stream.instanceType,
        [(stream as { priceSource?: string }).priceSource, stream.ondemandPrice],
      ]),
    );
    expect(sources).toEqual({
      'm5.xlarge': ['catalog', catalogPrice],
      'c4.large': ['bill', 0.192],
      't3.medium': ['bill', 0.0472],
      'm4.large': ['bill', 0.116],
      'r4.large': ['bill', 0.156],
    });
  });
});
