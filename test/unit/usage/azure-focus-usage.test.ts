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
