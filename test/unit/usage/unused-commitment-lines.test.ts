import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import type { ExportBatch } from '../../../shared/domain/usage/exports/export-rows';
import { createExportUsageCollector } from '../../../shared/domain/usage/exports/export-usage';
import { type AzureVm, azureFocusHeader, azureVmHourRow, azureVmId } from '../../support/azure-focus-files';

const importedAt = new Date('2026-11-01T00:00:00Z');

function batchOf(rows: readonly Record<string, unknown>[]): ExportBatch {
  return {
    length: rows.length,
    column: (name) => (rows.some((row) => name in row) ? rows.map((row) => row[name]) : undefined),
  };
}

const vm: AzureVm = {
  subscriptionId: '00000000-0000-4000-8000-0000000000a1',
  name: 'vm-web-1',
  region: 'eastus',
  size: 'Standard_D4s_v5',
  meterName: 'D4s v5',
  meterSubcategory: 'Dsv5 Series',
  listPrice: 0.192,
  pricing: 'Committed',
};

/** A day of the VM as Azure's amortized-cost dataset (Enterprise Agreement spelling) writes it. */
const amortizedDay = {
  Date: '06/01/2026',
  SubscriptionId: vm.subscriptionId,
  ResourceId: azureVmId(vm),
  ResourceLocation: 'EastUS',
  MeterCategory: 'Virtual Machines',
  MeterSubCategory: 'Dsv5 Series',
  MeterName: 'D4s v5',
  UnitOfMeasure: '1 Hour',
  AdditionalInfo: '{"ServiceType":"Standard_D4s_v5","VCPUs":4}',
  ChargeType: 'Usage',
  PricingModel: 'Reservation',
  Quantity: 24,
  PayGPrice: 0.192,
};

describe('lines of commitment hours nothing used', () => {
  it("are skipped as unused_commitment in Azure's amortized-cost export, its usage read as actual cost's", () => {
    // Prepare: the VM's day under a reservation of two instances: 24 hours used, 24 unused.
    const collector = createExportUsageCollector('azure-actual-cost', loadCatalog(), importedAt);

    // Act
    collector.addBatch(
      batchOf([
        amortizedDay,
        { ...amortizedDay, ChargeType: 'UnusedReservation', ResourceId: '', Quantity: 24 },
        { ...amortizedDay, ChargeType: 'UnusedSavingsPlan', ResourceId: '', Quantity: 3 },
      ]),
    );
    const usage = collector.finish();

    // Assess
    expect(usage.usedRows).toBe(1);
    expect(usage.skipped).toMatchObject({ unused_commitment: 2, not_usage: 0 });
    const june = Array.from(usage.providers[0]?.series[0]?.months.get('2026-06') ?? []);
    expect(june.slice(0, 24)).toEqual(new Array(24).fill(1));
  });

  it('are skipped as unused_commitment in FOCUS (CommitmentDiscountStatus Unused), not counted as VM hours', () => {
    // Prepare: an hour the VM ran under its reservation, and the reservation's unused hour, which
    // Azure's FocusCost writes as a Usage line of the reserved size.
    const header = [...azureFocusHeader, 'CommitmentDiscountStatus'];
    const used = azureVmHourRow(vm, Date.parse('2026-06-01T00:00:00Z'));
    const row = (values: readonly (string | number)[], status: string) =>
      Object.fromEntries([
        ...header.map((name, index) => [name, values[index]]),
        ['CommitmentDiscountStatus', status],
      ]);
    const collector = createExportUsageCollector('focus', loadCatalog(), importedAt);

    // Act
    collector.addBatch(batchOf([row(used, 'Used'), row(used, 'Unused')]));
    const usage = collector.finish();

    // Assess
    expect(usage.usedRows).toBe(1);
    expect(usage.skipped.unused_commitment).toBe(1);
    expect(Array.from(usage.providers[0]?.series[0]?.months.get('2026-06') ?? []).slice(0, 1)).toEqual([1]);
  });
});
