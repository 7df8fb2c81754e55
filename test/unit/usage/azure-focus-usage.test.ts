import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { detectImportFormat } from '../../../shared/domain/usage/exports/export-formats';
import type { ExportBatch } from '../../../shared/domain/usage/exports/export-rows';
import { createExportUsageCollector } from '../../../shared/domain/usage/exports/export-usage';
import { type AzureVm, azureFocusHeader, azureVmHourRow, azureVmId } from '../../support/azure-focus-files';

/** The rows as a reader hands them over: text columns by name. */
function batchOf(rows: readonly (string | number)[][]): ExportBatch {
  return {
    length: rows.length,
    column: (name) => {
      const index = azureFocusHeader.indexOf(name);
      return index < 0 ? undefined : rows.map((row) => String(row[index]));
    },
  };
}

const subscriptionId = '5f1c0000-0000-4000-8000-0000000000a1';
const web: AzureVm = {
  subscriptionId,
  name: 'web-1',
  region: 'eastus',
  size: 'Standard_D4s_v5',
  meterName: 'D4s v5',
  meterSubcategory: 'Dsv5 Series',
  listPrice: 0.192,
  pricing: 'Committed',
};
const hour = (h: number) => Date.parse('2026-06-01T00:00:00Z') + h * 3_600_000;

function collect(rows: readonly (string | number)[][]) {
  const collector = createExportUsageCollector('focus', loadCatalog(), new Date('2026-11-01T00:00:00Z'));
  collector.addBatch(batchOf(rows));
  return collector.finish();
}

describe('Azure rows of a FOCUS export', () => {
  it('are detected as FOCUS', () => {
    expect(detectImportFormat(azureFocusHeader)).toBe('focus');
  });

  it('become the hours of the VM: size from the SKU details, subscription from the sub-account', () => {
    // Act: two hours of a reservation-covered VM, the second half an hour.
    const usage = collect([azureVmHourRow(web, hour(0)), azureVmHourRow(web, hour(1), 0.5)]);

    // Assess
    expect(usage.usedRows).toBe(2);
    expect(usage.providers).toHaveLength(1);
    const [azure] = usage.providers;
    expect(azure?.provider).toBe('azure');
    expect(azure?.series.map((series) => series.resource)).toEqual([
      {
        resourceId: azureVmId(web),
        provider: 'azure',
        accountId: subscriptionId,
        region: 'eastus',
        service: 'Virtual Machines',
        instanceType: 'Standard_D4s_v5',
        operatingSystem: 'Linux',
        tenancy: 'Shared',
        usageType: 'running',
        usageUnit: 'Hrs',
        ondemandPrice: 0.192,
        priceSource: 'bill',
      },
    ]);
    expect(Array.from(azure?.series[0]?.months.get('2026-06')?.slice(0, 3) ?? [])).toEqual([1, 0.5, 0]);
  });

  it('read Windows from the meter subcategory and skip spot and non-hourly lines by reason', () => {
    // Prepare
    const windows: AzureVm = {
      ...web,
      name: 'win-1',
      meterSubcategory: 'Dsv5 Series Windows',
      listPrice: 0.376,
    };
    const spot: AzureVm = { ...web, name: 'spot-1', meterName: 'D4s v5 Spot' };
    const disk = azureVmHourRow(web, hour(0)).map((value, index) =>
      azureFocusHeader[index] === 'ConsumedUnit' ? '1/Month' : value,
    );

    // Act
    const usage = collect([azureVmHourRow(windows, hour(0)), azureVmHourRow(spot, hour(0)), disk]);

    // Assess
    expect(usage.providers[0]?.series.map((series) => series.resource.operatingSystem)).toEqual(['Windows']);
    expect(usage.providers[0]?.series[0]?.resource.ondemandPrice).toBe(0.376);
    expect(usage.skipped).toMatchObject({ spot: 1, not_instance_hours: 1 });
    expect(usage.usedRows + Object.values(usage.skipped).reduce((sum, count) => sum + count, 0)).toBe(3);
  });
});

/** Rows of an actual-cost export given as objects (a reader hands columns over by name). */
function actualCostBatch(rows: readonly Record<string, unknown>[]): ExportBatch {
  return {
    length: rows.length,
    column: (name) => (rows.some((row) => name in row) ? rows.map((row) => row[name]) : undefined),
  };
}

describe("Azure's actual-cost export", () => {
  const vmDay = {
    SubscriptionId: subscriptionId,
    ResourceId: azureVmId(web),
    ResourceLocation: 'EastUS',
    MeterCategory: 'Virtual Machines',
    MeterSubCategory: 'Dsv5 Series',
    MeterName: 'D4s v5',
    UnitOfMeasure: '1 Hour',
    AdditionalInfo: '{"ServiceType":"Standard_D4s_v5","VCPUs":4}',
    ChargeType: 'Usage',
    PricingModel: 'Reservation',
    PayGPrice: 0.192,
  };

  it('is detected by either spelling of its columns (Enterprise Agreement, Microsoft Customer Agreement)', () => {
    expect(detectImportFormat(['Date', 'ChargeType', 'MeterCategory', 'Quantity', 'AdditionalInfo'])).toBe(
      'azure-actual-cost',
    );
    expect(detectImportFormat(['date', 'chargeType', 'meterCategory', 'quantity', 'additionalInfo'])).toBe(
      'azure-actual-cost',
    );
  });

  it("spreads a day's VM hours evenly over the day, and skips what is not a VM's hours by reason", () => {
    // Prepare: 24 hours on June 1 (MM/DD/YYYY), 12 hours on June 2 (ISO); a spot day, a
    // reservation purchase, a disk.
    const collector = createExportUsageCollector(
      'azure-actual-cost',
      loadCatalog(),
      new Date('2026-11-01T00:00:00Z'),
    );

    // Act
    collector.addBatch(
      actualCostBatch([
        { ...vmDay, Date: '06/01/2026', Quantity: 24 },
        { ...vmDay, Date: '2026-06-02', Quantity: 12 },
        { ...vmDay, Date: '06/01/2026', Quantity: 24, PricingModel: 'Spot' },
        { ...vmDay, Date: '06/01/2026', Quantity: 1, ChargeType: 'Purchase' },
        { ...vmDay, Date: '06/01/2026', Quantity: 0.03, MeterCategory: 'Storage', UnitOfMeasure: '1/Month' },
      ]),
    );
    const usage = collector.finish();

    // Assess: 24 / 24 = 1 instance-hour each hour of June 1, 12 / 24 = 0.5 each hour of June 2.
    expect(usage.usedRows).toBe(2);
    expect(usage.skipped).toMatchObject({ spot: 1, not_usage: 1, not_instance_hours: 1 });
    const [series] = usage.providers[0]?.series ?? [];
    expect(series?.resource).toMatchObject({
      provider: 'azure',
      accountId: subscriptionId,
      region: 'eastus',
      instanceType: 'Standard_D4s_v5',
      operatingSystem: 'Linux',
      ondemandPrice: 0.192,
    });
    const june = Array.from(series?.months.get('2026-06') ?? []);
    expect(june.slice(0, 24)).toEqual(new Array(24).fill(1));
    expect(june.slice(24, 48)).toEqual(new Array(24).fill(0.5));
    expect(june.slice(48).every((units) => units === 0)).toBe(true);
  });
});
