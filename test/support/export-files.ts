/**
 * One AWS fleet written as every file import-usage reads (docs/import.md): the project's usage
 * CSV, CUR 2.0 (Parquet with a real `product` MAP column, gzip CSV with the map as JSON), legacy
 * CUR (gzip CSV) and FOCUS 1.2 with the AWS columns (CSV and Parquet). Each export also holds the
 * lines a real one has beside instance-hours (tax, fees, storage, spot, transfer), and splits some
 * hours into a reservation-covered and an on-demand line, so a reader that keeps them, or counts
 * an hour once, differs from the usage CSV.
 */
import { gzipSync } from 'node:zlib';
import { type BillingLineItem, cur2Header, cur2Row } from '../../local/demo/cur2-parquet';
import { loadCatalog } from '../../shared/domain/catalog/catalog';
import { usageHeader } from './usage-files';

const HOUR_MS = 3_600_000;

export interface ExportResource {
  readonly resourceId: string;
  readonly accountId: string;
  readonly region: string;
  readonly service: 'AmazonEC2' | 'AmazonRDS';
  readonly instanceType: string;
  /** EC2 platform or RDS engine, as the catalog names them. */
  readonly operatingSystem: string;
  readonly usageType: string;
  readonly operation: string;
  /** Instance-hours used in hour t, each hour as the lines that bill it. */
  readonly linesAt: (hour: number) => readonly { type: string; amount: number }[];
}

/** One billing line, in no format yet. */
export type LineItem = BillingLineItem;

const account = '111111111111';

/**
 * The fleet: a Linux m5.large always on, whose odd hours are half reserved and half on demand;
 * a Windows m5.xlarge on 12 hours of each day under a savings plan; a MySQL db.m5.large always on.
 */
export const exportFleet: readonly ExportResource[] = [
  {
    resourceId: 'i-0web00000000001',
    accountId: account,
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.large',
    operatingSystem: 'Linux',
    usageType: 'BoxUsage:m5.large',
    operation: 'RunInstances',
    linesAt: (t) =>
      t % 2 === 0
        ? [{ type: 'Usage', amount: 1 }]
        : [
            { type: 'DiscountedUsage', amount: 0.5 },
            { type: 'Usage', amount: 0.5 },
          ],
  },
  {
    resourceId: 'i-0win00000000002',
    accountId: account,
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.xlarge',
    operatingSystem: 'Windows',
    usageType: 'BoxUsage:m5.xlarge',
    operation: 'RunInstances:0002',
    linesAt: (t) => (t % 24 >= 8 && t % 24 < 20 ? [{ type: 'SavingsPlanCoveredUsage', amount: 1 }] : []),
  },
  {
    resourceId: `arn:aws:rds:us-east-1:${account}:db:orders`,
    accountId: account,
    region: 'us-east-1',
    service: 'AmazonRDS',
    instanceType: 'db.m5.large',
    operatingSystem: 'MySQL',
    usageType: 'InstanceUsage:db.m5.large',
    operation: 'CreateDBInstance:0002',
    linesAt: () => [{ type: 'Usage', amount: 1 }],
  },
];

function publicRate(resource: ExportResource): number {
  const rate = loadCatalog().ondemandPrice({ ...resource, provider: 'aws', tenancy: 'Shared' });
  if (rate === undefined) throw new Error(`the catalog prices no ${resource.instanceType}`);
  return rate;
}

/** Every line of the fleet over `hours` hours from `start`, with the other lines a month has. */
export function fleetLineItems(start: string, hours: number, resources = exportFleet): LineItem[] {
  const first = Date.parse(start);
  const items: LineItem[] = [];
  const other = (t: number, fields: Partial<LineItem>): LineItem => ({
    type: 'Usage',
    start: first + t * HOUR_MS,
    productCode: 'AmazonEC2',
    usageType: '',
    operation: '',
    resourceId: '',
    accountId: account,
    region: 'us-east-1',
    instanceType: '',
    operatingSystem: '',
    databaseEngine: '',
    amount: 1,
    rate: 0.01,
    unit: 'Hrs',
    description: 'other',
    ...fields,
  });
  for (let t = 0; t < hours; t++) {
    for (const resource of resources) {
      for (const line of resource.linesAt(t)) {
        const rds = resource.service === 'AmazonRDS';
        items.push({
          type: line.type,
          start: first + t * HOUR_MS,
          productCode: resource.service,
          usageType: `USE1-${resource.usageType}`,
          operation: resource.operation,
          resourceId: resource.resourceId,
          accountId: resource.accountId,
          region: resource.region,
          instanceType: resource.instanceType,
          operatingSystem: rds ? '' : resource.operatingSystem,
          databaseEngine: rds ? resource.operatingSystem : '',
          amount: line.amount,
          rate: publicRate(resource),
          unit: 'Hrs',
          description: `On Demand ${resource.operatingSystem} ${resource.instanceType} Instance Hour`,
        });
      }
    }
    items.push(
      other(t, { usageType: 'USE1-EBS:VolumeUsage.gp3', resourceId: 'vol-1', amount: 0.01, unit: 'GB-Mo' }),
      other(t, {
        usageType: 'USE1-SpotUsage:c5.large',
        resourceId: 'i-0spot0000000003',
        instanceType: 'c5.large',
      }),
      other(t, { usageType: 'USE1-DataTransfer-Out-Bytes', amount: 2.5, unit: 'GB' }),
    );
  }
  items.push(
    other(0, { type: 'Tax', usageType: 'Tax', amount: 0 }),
    other(0, { type: 'RIFee', usageType: 'HeavyUsage:m5.large', amount: hours }),
    other(0, { type: 'SavingsPlanNegation', usageType: 'ComputeSP:1yrNoUpfront', amount: 1 }),
  );
  return items;
}

/** The project usage CSV of the same fleet: one row per resource and hour used, lines of an hour added up. */
export function fleetUsageCsv(start: string, hours: number, resources = exportFleet): string[] {
  const first = Date.parse(start);
  const lines = [usageHeader];
  for (const resource of resources) {
    for (let t = 0; t < hours; t++) {
      const units = resource.linesAt(t).reduce((sum, line) => sum + line.amount, 0);
      if (units === 0) continue;
      const timestamp = new Date(first + t * HOUR_MS).toISOString().replace('.000Z', 'Z');
      lines.push(
        [
          timestamp,
          'aws',
          resource.accountId,
          resource.region,
          resource.service,
          resource.resourceId,
          resource.instanceType,
          resource.operatingSystem,
          'Shared',
          'running',
          units,
          '',
        ].join(','),
      );
    }
  }
  return lines;
}

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\n');
}

const iso = (ms: number) => new Date(ms).toISOString();

/** CUR 2.0 as gzip CSV: the `product` map written as JSON. */
export function cur2GzipCsv(items: readonly LineItem[]): Uint8Array {
  return gzipSync(csv(cur2Header, items.map(cur2Row)));
}

/** Legacy CUR as gzip CSV: `lineItem/...` and `product/...` columns. */
export function legacyCurGzipCsv(items: readonly LineItem[]): Uint8Array {
  const header = [
    'identity/LineItemId',
    'lineItem/LineItemType',
    'lineItem/UsageStartDate',
    'lineItem/UsageEndDate',
    'lineItem/ProductCode',
    'lineItem/UsageType',
    'lineItem/Operation',
    'lineItem/ResourceId',
    'lineItem/UsageAccountId',
    'lineItem/UsageAmount',
    'product/region',
    'product/instanceType',
    'product/operatingSystem',
    'product/tenancy',
    'product/databaseEngine',
    'product/deploymentOption',
    'pricing/publicOnDemandRate',
  ];
  const rows = items.map((item, index) => [
    `line-${index}`,
    item.type,
    iso(item.start).replace('.000Z', 'Z'),
    iso(item.start + HOUR_MS).replace('.000Z', 'Z'),
    item.productCode,
    item.usageType,
    item.operation,
    item.resourceId,
    item.accountId,
    item.amount,
    item.region,
    item.instanceType,
    item.operatingSystem,
    item.productCode === 'AmazonEC2' && item.instanceType ? 'Shared' : '',
    item.databaseEngine,
    item.databaseEngine ? 'Single-AZ' : '',
    item.rate,
  ]);
  return gzipSync(csv(header, rows));
}

export const focusHeader = [
  'BilledCost',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ConsumedQuantity',
  'ConsumedUnit',
  'ListUnitPrice',
  'PricingCategory',
  'ProviderName',
  'RegionId',
  'ResourceId',
  'ServiceName',
  'SubAccountId',
  'x_Operation',
  'x_ServiceCode',
  'x_UsageType',
];

const focusServiceNames: Readonly<Record<string, string>> = {
  AmazonEC2: 'Amazon Elastic Compute Cloud',
  AmazonRDS: 'Amazon Relational Database Service',
};

export function focusRows(items: readonly LineItem[]): (string | number)[][] {
  return items.map((item) => {
    const usage = ['Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage'].includes(item.type);
    return [
      item.amount * item.rate,
      usage ? 'Usage' : item.type === 'Tax' ? 'Tax' : 'Purchase',
      '',
      item.description,
      iso(item.start),
      iso(item.start + HOUR_MS),
      item.amount,
      item.unit,
      item.rate,
      item.type === 'Usage' ? 'Standard' : 'Committed',
      'AWS',
      item.region,
      item.resourceId,
      focusServiceNames[item.productCode] ?? item.productCode,
      item.accountId,
      item.operation,
      item.productCode,
      item.usageType,
    ];
  });
}

/** FOCUS 1.2 with the AWS columns, as CSV. */
export function focusCsv(items: readonly LineItem[]): string {
  return csv(focusHeader, focusRows(items));
}
