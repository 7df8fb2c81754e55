import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCur2Parquet } from '../../../local/demo/cur2-parquet';
import { billingPeriodsOf, fleetBillingLines } from '../../../local/demo/fleet-billing-lines';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import type { ExistingCommitment, UsageStream } from '../../../shared/domain/engine/shapes/model';
import { createExportUsageCollector } from '../../../shared/domain/usage/exports/export-usage';
import { fileExportSource } from '../../../shared/exports/file-export-source';
import { readExport } from '../../../shared/exports/read-export';

/**
 * The demo's AWS export (local/demo/fleet-billing-lines.ts): the lines AWS would bill for a
 * synthetic fleet, read back by the CUR 2.0 mapping into the fleet's own usage.
 */

const HOUR_MS = 3_600_000;
// 2026-10-31T22:00Z: the window's four hours straddle October and November.
const startHour = Date.parse('2026-10-31T22:00:00Z') / HOUR_MS;

function stream(fields: Partial<UsageStream> & Pick<UsageStream, 'resourceId' | 'usage'>): UsageStream {
  return {
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.large',
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    usageType: 'running',
    usageUnit: 'Hrs',
    ondemandPrice: 0.096,
    ...fields,
  };
}

const web = (n: number, usage: number[]) =>
  stream({
    resourceId: `arn:aws:ec2:us-east-1:111111111111:instance/i-0web${n}`,
    usage: Float64Array.from(usage),
  });
const windows = stream({
  resourceId: 'arn:aws:ec2:eu-west-1:111111111111:instance/i-0win1',
  region: 'eu-west-1',
  instanceType: 'm5.xlarge',
  operatingSystem: 'Windows',
  ondemandPrice: 0.376,
  usage: Float64Array.from([1, 1, 1, 1]),
});
const database = stream({
  resourceId: 'arn:aws:rds:us-east-1:111111111111:db:orders',
  service: 'AmazonRDS',
  instanceType: 'db.m5.large',
  operatingSystem: 'MySQL',
  ondemandPrice: 0.171,
  usage: Float64Array.from([1, 1, 0, 1]),
});

/** One m5.large Linux reserved from the window's second hour on. */
const reservation: ExistingCommitment = {
  id: 'ri-1',
  provider: 'aws',
  accountId: '111111111111',
  region: 'us-east-1',
  contractType: 'standard_ris',
  instanceType: 'm5.large',
  quantity: 1,
  hourlyCommitment: 0,
  upfrontCost: 0,
  recurringCost: 0.06,
  start: '2026-10-31T23:00:00Z',
  end: '2027-10-31T23:00:00Z',
  lockinEnd: '2027-10-31T23:00:00Z',
};

const fleet = [web(1, [1, 1, 0.5, 0]), web(2, [1, 1, 1, 1]), windows, database];

describe('the demo fleet as billing lines', () => {
  it('names the billing periods the window touches', () => {
    expect(billingPeriodsOf(startHour, 4)).toEqual(['2026-10', '2026-11']);
    expect(billingPeriodsOf(startHour, 2)).toEqual(['2026-10']);
  });

  it('bills each hour an instance ran in its period, a reservation covering one instance of its kind', () => {
    // Act
    const october = [...fleetBillingLines(fleet, startHour, '2026-10', [reservation])];
    const november = [...fleetBillingLines(fleet, startHour, '2026-11', [reservation])];

    // Assess: October holds hours 22:00 and 23:00 (4 instance lines each: 8), November 00:00 (3:
    // web 1 at half an hour, the database off) and 01:00 (3: web 1 off): 6; November's first hour
    // starts a day: one volume line per EC2 instance (3); each period its tax line.
    const instanceLines = (lines: typeof october) => lines.filter((line) => line.unit === 'Hrs');
    expect(instanceLines(october)).toHaveLength(8);
    expect(instanceLines(november)).toHaveLength(6);
    expect(october.filter((line) => line.usageType.includes('EBS'))).toHaveLength(0);
    expect(november.filter((line) => line.usageType.includes('EBS'))).toHaveLength(3);
    expect([october, november].map((lines) => lines.filter((line) => line.type === 'Tax').length)).toEqual([
      1, 1,
    ]);
    // The reservation starts at 23:00: from then one m5.large line an hour is DiscountedUsage (web 1
    // at 23:00 and 00:00, web 2 at 01:00 when web 1 is off): 3 lines.
    const discounted = [...october, ...november].filter((line) => line.type === 'DiscountedUsage');
    expect(discounted.map((line) => new Date(line.start).toISOString())).toEqual([
      '2026-10-31T23:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T01:00:00.000Z',
    ]);
    expect(new Set(discounted.map((line) => line.instanceType))).toEqual(new Set(['m5.large']));
  });

  it('writes the usage type, operation and resource id AWS writes', () => {
    const lines = [...fleetBillingLines(fleet, startHour, '2026-10', [])].slice(0, 4);
    expect(lines.map(({ usageType, operation, resourceId }) => [usageType, operation, resourceId])).toEqual([
      ['BoxUsage:m5.large', 'RunInstances', 'i-0web1'],
      ['BoxUsage:m5.large', 'RunInstances', 'i-0web2'],
      ['EU-BoxUsage:m5.xlarge', 'RunInstances:0002', 'i-0win1'],
      ['InstanceUsage:db.m5.large', 'CreateDBInstance:0002', 'arn:aws:rds:us-east-1:111111111111:db:orders'],
    ]);
  });

  it('reads back, written as Parquet and read by the CUR 2.0 reader, as the fleet it was written from', async () => {
    // Prepare: both periods' lines in one Parquet file, read as of the window's end.
    const lines = billingPeriodsOf(startHour, 4).flatMap((period) => [
      ...fleetBillingLines(fleet, startHour, period, [reservation]),
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'fleet-lines-'));
    const path = join(dir, 'cur2.parquet');
    writeCur2Parquet(path, lines, 5);
    const source = await fileExportSource(path);

    // Act
    const collector = createExportUsageCollector('cur2', loadCatalog(), new Date((startHour + 4) * HOUR_MS));
    try {
      const rows = await readExport(source);
      if (rows.format === 'usage-csv') throw new Error('read as a usage CSV');
      for await (const batch of rows.batches) collector.addBatch(batch);
    } finally {
      await source.close();
      await rm(dir, { recursive: true, force: true });
    }
    const exported = collector.finish();

    // Assess: the hours each instance ran (October's last two, November's first two), platform
    // and engine as generated; the 3 volume lines and 2 tax lines skipped.
    const read = Object.fromEntries(
      (exported.providers[0]?.series ?? []).map(({ resource, months }) => [
        resource.resourceId,
        [
          resource.operatingSystem,
          [...(months.get('2026-10') ?? []).slice(-2), ...(months.get('2026-11') ?? []).slice(0, 2)],
        ],
      ]),
    );
    expect(read).toEqual({
      'i-0web1': ['Linux', [1, 1, 0.5, 0]],
      'i-0web2': ['Linux', [1, 1, 1, 1]],
      'i-0win1': ['Windows', [1, 1, 1, 1]],
      'arn:aws:rds:us-east-1:111111111111:db:orders': ['MySQL', [1, 1, 0, 1]],
    });
    expect(exported.rows).toBe(lines.length);
    expect(exported.skipped.not_instance_hours).toBe(3);
    expect(exported.skipped.not_usage).toBe(2);
  });
});
