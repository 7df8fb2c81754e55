import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { detectImportFormat } from '../../../shared/domain/usage/exports/export-formats';
import type { ExportBatch } from '../../../shared/domain/usage/exports/export-rows';
import { createExportUsageCollector } from '../../../shared/domain/usage/exports/export-usage';

/** A batch of rows given as objects, the way a reader hands columns over. */
function batchOf(rows: readonly Record<string, unknown>[]): ExportBatch {
  return {
    length: rows.length,
    column: (name) => (rows.some((row) => name in row) ? rows.map((row) => row[name]) : undefined),
  };
}

const importedAt = new Date('2026-11-01T00:00:00Z');

function cur2Line(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    line_item_line_item_type: 'Usage',
    line_item_usage_start_date: '2026-06-01T00:00:00.000Z',
    line_item_usage_end_date: '2026-06-01T01:00:00.000Z',
    line_item_product_code: 'AmazonEC2',
    line_item_usage_type: 'USE1-BoxUsage:m5.large',
    line_item_operation: 'RunInstances',
    line_item_resource_id: 'i-1',
    line_item_usage_account_id: '111111111111',
    line_item_usage_amount: 1,
    product_region_code: 'us-east-1',
    product_instance_type: 'm5.large',
    pricing_public_on_demand_rate: '',
    product: {},
    ...fields,
  };
}

function collect(format: 'cur2' | 'focus', rows: readonly Record<string, unknown>[]) {
  const collector = createExportUsageCollector(format, loadCatalog(), importedAt);
  collector.addBatch(batchOf(rows));
  return collector.finish();
}

describe('reading billing export rows', () => {
  it('tells the formats apart by their columns', () => {
    expect(detectImportFormat(Object.keys(cur2Line({})))).toBe('cur2');
    expect(
      detectImportFormat(['lineItem/LineItemType', 'lineItem/UsageStartDate', 'lineItem/UsageAmount']),
    ).toBe('cur');
    expect(
      detectImportFormat(['ChargeCategory', 'ChargePeriodStart', 'ConsumedQuantity', 'x_UsageType']),
    ).toBe('focus');
    expect(detectImportFormat(['timestamp', 'resource_id', 'usage_type', 'units', 'provider'])).toBe(
      'usage-csv',
    );
    expect(detectImportFormat(['a', 'b'])).toBeUndefined();
  });

  it('reads the platform from the product map when the operation code names none', () => {
    // Act
    const usage = collect('cur2', [
      cur2Line({ line_item_operation: 'RunInstances:9999', product: { operating_system: 'Windows' } }),
    ]);

    // Assess
    expect(usage.providers[0]?.series[0]?.resource).toMatchObject({
      instanceType: 'm5.large',
      operatingSystem: 'Windows',
      tenancy: 'Shared',
    });
  });

  it('adds up the lines of one resource and hour, and spreads a daily line over its 24 hours', () => {
    // Prepare: a reserved half and an on-demand half of hour 0, then a day of 12 instance-hours.
    const rows = [
      cur2Line({ line_item_line_item_type: 'DiscountedUsage', line_item_usage_amount: 0.5 }),
      cur2Line({ line_item_usage_amount: 0.5 }),
      cur2Line({
        line_item_usage_start_date: '2026-06-02T00:00:00.000Z',
        line_item_usage_end_date: '2026-06-03T00:00:00.000Z',
        line_item_usage_amount: 12,
      }),
    ];

    // Act
    const usage = collect('cur2', rows);

    // Assess: 0.5 + 0.5 = 1 in hour 0; 12 / 24 = 0.5 in each hour of June 2.
    const june = usage.providers[0]?.series[0]?.months.get('2026-06') as Float64Array;
    expect(june[0]).toBe(1);
    expect([...june.slice(24, 48)]).toEqual(Array(24).fill(0.5));
    expect(june[48]).toBe(0);
    expect(usage.usedRows).toBe(3);
  });

  it('prices a Multi-AZ database at twice the Single-AZ catalog price when the row has no rate', () => {
    // Act
    const usage = collect('cur2', [
      cur2Line({
        line_item_product_code: 'AmazonRDS',
        line_item_usage_type: 'USE1-Multi-AZUsage:db.m5.large',
        line_item_operation: 'CreateDBInstance:0002',
        line_item_resource_id: 'arn:aws:rds:us-east-1:111111111111:db:orders',
        product_instance_type: 'db.m5.large',
        product: { database_engine: 'MySQL', deployment_option: 'Multi-AZ' },
      }),
    ]);

    // Assess: the catalog's db.m5.large MySQL is 0.171 a hour; Multi-AZ is 2 x 0.171 = 0.342.
    expect(usage.providers[0]?.series[0]?.resource).toMatchObject({
      service: 'AmazonRDS',
      operatingSystem: 'MySQL',
      deploymentOption: 'Multi-AZ',
      ondemandPrice: 0.342,
    });
  });

  it('keeps a resized instance as one series per instance type, named after it', () => {
    // Act
    const usage = collect('cur2', [
      cur2Line({}),
      cur2Line({
        line_item_usage_start_date: '2026-06-01T01:00:00.000Z',
        line_item_usage_end_date: '2026-06-01T02:00:00.000Z',
        line_item_usage_type: 'USE1-BoxUsage:m5.xlarge',
        product_instance_type: 'm5.xlarge',
      }),
    ]);

    // Assess
    expect(usage.providers[0]?.series.map((series) => series.resource.resourceId)).toEqual([
      'i-1 (m5.large Linux Shared)',
      'i-1 (m5.xlarge Linux Shared)',
    ]);
  });

  it('counts every row that is not an instance-hour by its reason, so that the counts add up', () => {
    // Act
    const usage = collect('cur2', [
      cur2Line({}),
      cur2Line({ line_item_line_item_type: 'Tax' }),
      cur2Line({ line_item_usage_type: 'USE1-SpotUsage:m5.large' }),
      cur2Line({ line_item_usage_type: 'USE1-HostUsage:m5' }),
      cur2Line({ line_item_usage_type: 'USE1-EBS:VolumeUsage.gp3' }),
      cur2Line({ line_item_resource_id: '' }),
      cur2Line({ line_item_usage_start_date: 'yesterday' }),
      cur2Line({ product_instance_type: 'm5.huge', line_item_resource_id: 'i-2' }),
      cur2Line({ line_item_usage_start_date: '2062-06-01T00:00:00Z', line_item_resource_id: 'i-3' }),
    ]);

    // Assess
    expect(usage.rows).toBe(9);
    expect(usage.usedRows).toBe(1);
    expect(usage.skipped).toEqual({
      not_usage: 1,
      unused_commitment: 0,
      correction: 0,
      not_instance_hours: 1,
      spot: 1,
      dedicated_host: 1,
      no_resource_id: 1,
      no_price: 1,
      invalid: 1,
      future_hour: 1,
    });
  });

  it('reads a FOCUS instance-hour from its charge description when the AWS columns are absent', () => {
    // Act: a line of the FinOps Foundation's sample (NULL written as text, no zone on the times).
    const usage = collect('focus', [
      {
        ChargeCategory: 'Usage',
        ChargeClass: 'NULL',
        PricingCategory: 'Committed',
        ChargePeriodStart: '2024-09-04 04:00:00',
        ChargePeriodEnd: '2024-09-04 05:00:00',
        ProviderName: 'AWS',
        ServiceName: 'Amazon Elastic Compute Cloud',
        ChargeDescription: '$0.0464 per On Demand Linux t2.medium Instance Hour',
        ResourceId: 'i-0lbaaa6a98751b841',
        SubAccountId: '69918885631',
        RegionId: 'us-west-2',
        ConsumedQuantity: '1.000000000000000',
        ConsumedUnit: 'Hours',
        ListUnitPrice: '0.0464',
      },
    ]);

    // Assess
    expect(usage.providers[0]?.series[0]?.resource).toMatchObject({
      provider: 'aws',
      resourceId: 'i-0lbaaa6a98751b841',
      accountId: '69918885631',
      region: 'us-west-2',
      service: 'AmazonEC2',
      instanceType: 't2.medium',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
      ondemandPrice: 0.0464,
    });
    expect(usage.providers[0]?.covered.firstHour).toBe(Date.parse('2024-09-04T04:00:00Z') / 3_600_000);
  });
});
