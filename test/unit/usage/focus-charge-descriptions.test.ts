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

describe('FOCUS RDS and capacity reservation lines without the AWS columns', () => {
  it('reads an RDS instance-hour from its description: instance class, deployment and engine', () => {
    // Prepare
    const record = {
      ...hourOf('db', '$0.342 per RDS db.m5.large Multi-AZ instance hour (or partial hour) running MySQL'),
      ServiceName: 'Amazon Relational Database Service',
      ServiceCategory: 'Databases',
      ResourceId: 'arn:aws:rds:us-east-1:11353890204:db:orders',
      ListUnitPrice: '0.342',
    };
    const collector = createExportUsageCollector('focus', loadCatalog(), importedAt);

    // Act
    collector.addBatch(batchOfRecords([record]));
    const usage = collector.finish();

    // Assess
    expect(usage.usedRows).toBe(1);
    expect(usage.providers[0]?.series[0]?.resource).toMatchObject({
      service: 'AmazonRDS',
      instanceType: 'db.m5.large',
      operatingSystem: 'MySQL',
      deploymentOption: 'Multi-AZ',
      ondemandPrice: 0.342,
    });
  });

  it("skips a capacity reservation's unused hours (CapacityReservationStatus Unused) as unused_commitment", () => {
    // Prepare: the instance's hour in its capacity reservation, and the reservation's unused hour.
    const used = {
      ...hourOf('c5.2xlarge', '$0.34 per On Demand Linux c5.2xlarge Instance Hour'),
      CapacityReservationStatus: 'Used',
    };
    const unused = { ...used, ResourceId: 'cr-0123456789abcdef0', CapacityReservationStatus: 'Unused' };
    const collector = createExportUsageCollector('focus', loadCatalog(), importedAt);

    // Act
    collector.addBatch(batchOfRecords([used, unused]));
    const usage = collector.finish();

    // Assess
    expect(usage.usedRows).toBe(1);
    expect(usage.skipped.unused_commitment).toBe(1);
    expect(usage.providers[0]?.series.map((series) => series.resource.resourceId)).toEqual(['i-c5.2xlarge']);
  });
});
