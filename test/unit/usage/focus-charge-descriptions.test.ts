import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { createExportUsageCollector } from '../../../shared/domain/usage/exports/export-usage';
import { batchOfRecords, focusSampleRecord } from '../../support/focus-sample';

const importedAt = new Date('2026-11-01T00:00:00Z');

/** The sample's on-demand c5.2xlarge hour, described as another instance type. */
function hourOf(instanceType: string, description: string) {
  const record = focusSampleRecord('$0.34 per On Demand Linux c5.2xlarge Instance Hour');
  return { ...record, ChargeDescription: description, ResourceId: `i-${instanceType}` };
}

describe('FOCUS charge descriptions without the AWS columns', () => {
  it.each([
    ['c7i.metal-24xl', '$4.284 per On Demand Linux c7i.metal-24xl Instance Hour'],
    ['m7i.metal-48xl', '$9.6768 per On Demand Windows m7i.metal-48xl Instance Hour'],
    ['u-6tb1.56xlarge', '$40.3 per On Demand Linux u-6tb1.56xlarge Instance Hour'],
    ['c7i.metal-24xl', 'USD 0.0 hourly fee per Linux/UNIX (Amazon VPC), c7i.metal-24xl instance'],
  ])('reads %s from "%s" as that instance type', (instanceType, description) => {
    // Act
    const collector = createExportUsageCollector('focus', loadCatalog(), importedAt);
    collector.addBatch(batchOfRecords([hourOf(instanceType, description)]));
    const usage = collector.finish();

    // Assess
    expect(usage.skipped.not_instance_hours).toBe(0);
    expect(usage.usedRows).toBe(1);
    expect(usage.providers[0]?.series[0]?.resource.instanceType).toBe(instanceType);
  });
});
