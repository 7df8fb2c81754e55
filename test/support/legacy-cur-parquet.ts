/**
 * Legacy Cost and Usage Reports in Parquet, as AWS delivers them for Athena: flat columns, the
 * CSV's `category/attributeName` spelled `category_attribute_name`, every product attribute a
 * column of its own (`product_region`, `product_instance_type`, `product_operating_system`, ...),
 * no `product` map. The Well-Architected Labs' workshop files (`Oct2018-WorkshopCUR-00001.snappy.parquet`,
 * awslabs/aws-well-architected-labs) are such files; their repository is too large to fetch here,
 * so this writes the layout from the columns and types of AWS's Athena table for the legacy CUR:
 * usage dates Parquet timestamps, amounts and costs doubles, rates text
 * (`pricing_public_on_demand_rate` is a string column). Written with hyparquet-writer.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';

const HOUR_MS = 3_600_000;

/** One instance of the workshop-like fleet. */
export interface WorkshopInstance {
  readonly resourceId: string;
  readonly region: string;
  /** `USE1`, `EUW2`: the usage type's region prefix (none in us-east-1). */
  readonly usagePrefix: string;
  readonly instanceType: string;
  readonly operatingSystem: 'Linux' | 'Windows';
  /** The public on-demand rate, as the price list has it (text). */
  readonly rate: string;
}

/** A fleet of the workshop's shape: t2, t3, m4, m5, c4 and r4 instances in us-east-1 and eu-west-2. */
export const workshopFleet: readonly WorkshopInstance[] = [
  {
    resourceId: 'i-0a1b2c3d4e5f60001',
    region: 'us-east-1',
    usagePrefix: '',
    instanceType: 't2.micro',
    operatingSystem: 'Linux',
    rate: '0.0116',
  },
  {
    resourceId: 'i-0a1b2c3d4e5f60002',
    region: 'us-east-1',
    usagePrefix: '',
    instanceType: 'm5.xlarge',
    operatingSystem: 'Linux',
    rate: '0.192',
  },
  {
    resourceId: 'i-0a1b2c3d4e5f60003',
    region: 'us-east-1',
    usagePrefix: '',
    instanceType: 'c4.large',
    operatingSystem: 'Windows',
    rate: '0.192',
  },
  {
    resourceId: 'i-0a1b2c3d4e5f60004',
    region: 'eu-west-2',
    usagePrefix: 'EUW2-',
    instanceType: 't3.medium',
    operatingSystem: 'Linux',
    rate: '0.0472',
  },
  {
    resourceId: 'i-0a1b2c3d4e5f60005',
    region: 'eu-west-2',
    usagePrefix: 'EUW2-',
    instanceType: 'm4.large',
    operatingSystem: 'Linux',
    rate: '0.116',
  },
  {
    resourceId: 'i-0a1b2c3d4e5f60006',
    region: 'eu-west-2',
    usagePrefix: 'EUW2-',
    instanceType: 'r4.large',
    operatingSystem: 'Linux',
    rate: '0.156',
  },
];

const locations: Readonly<Record<string, string>> = {
  'us-east-1': 'US East (N. Virginia)',
  'eu-west-2': 'EU (London)',
};

/** A row of the file, by column name. */
export type LegacyCurRow = Record<string, string | number | Date | null>;

const account = '123456789012';

/** One hour of an instance as the legacy CUR bills it on demand. */
export function instanceHourRow(instance: WorkshopInstance, startMs: number): LegacyCurRow {
  const windows = instance.operatingSystem === 'Windows';
  return {
    identity_line_item_id: `li-${instance.resourceId}-${startMs}`,
    identity_time_interval: `${new Date(startMs).toISOString()}/${new Date(startMs + HOUR_MS).toISOString()}`,
    bill_payer_account_id: account,
    line_item_usage_account_id: account,
    line_item_line_item_type: 'Usage',
    line_item_usage_start_date: new Date(startMs),
    line_item_usage_end_date: new Date(startMs + HOUR_MS),
    line_item_product_code: 'AmazonEC2',
    line_item_usage_type: `${instance.usagePrefix}BoxUsage:${instance.instanceType}`,
    line_item_operation: windows ? 'RunInstances:0002' : 'RunInstances',
    line_item_availability_zone: `${instance.region}a`,
    line_item_resource_id: instance.resourceId,
    line_item_usage_amount: 1,
    line_item_unblended_rate: instance.rate,
    line_item_unblended_cost: Number(instance.rate),
    line_item_line_item_description: `$${instance.rate} per On Demand ${windows ? 'Windows' : 'Linux'} ${instance.instanceType} Instance Hour`,
    product_product_name: 'Amazon Elastic Compute Cloud',
    product_instance_type: instance.instanceType,
    product_location: locations[instance.region] ?? instance.region,
    product_operating_system: instance.operatingSystem,
    product_region: instance.region,
    product_tenancy: 'Shared',
    product_database_engine: null,
    product_deployment_option: null,
    pricing_public_on_demand_rate: instance.rate,
    pricing_term: 'OnDemand',
    pricing_unit: 'Hrs',
  };
}

/** The lines a real hour holds beside instance-hours: an EBS volume's storage and a tax line. */
export function otherRows(startMs: number): LegacyCurRow[] {
  const base = instanceHourRow(workshopFleet[0] as WorkshopInstance, startMs);
  return [
    {
      ...base,
      identity_line_item_id: `li-ebs-${startMs}`,
      line_item_usage_type: 'EBS:VolumeUsage.gp2',
      line_item_operation: 'CreateVolume-Gp2',
      line_item_resource_id: 'vol-0a1b2c3d4e5f60001',
      line_item_usage_amount: 0.0134,
      product_instance_type: null,
      product_operating_system: null,
      pricing_public_on_demand_rate: '0.1',
      pricing_unit: 'GB-Mo',
    },
    {
      ...base,
      identity_line_item_id: `li-tax-${startMs}`,
      line_item_line_item_type: 'Tax',
      line_item_usage_type: '',
      line_item_operation: '',
      line_item_resource_id: '',
      line_item_usage_amount: 1,
    },
  ];
}

/** The fleet's first `hours` hours from `start`, with the other lines of each hour. */
export function workshopRows(start: string, hours: number): LegacyCurRow[] {
  const rows: LegacyCurRow[] = [];
  for (let hour = 0; hour < hours; hour++) {
    const at = Date.parse(start) + hour * HOUR_MS;
    for (const instance of workshopFleet) rows.push(instanceHourRow(instance, at));
    rows.push(...otherRows(at));
  }
  return rows;
}

const doubles = new Set(['line_item_usage_amount', 'line_item_unblended_cost']);
const timestamps = new Set(['line_item_usage_start_date', 'line_item_usage_end_date']);

/** The rows as a legacy CUR Athena Parquet file, its columns in the first row's order. */
export function legacyCurParquet(rows: readonly LegacyCurRow[], rowGroupSize = 1000): Uint8Array {
  const names = Object.keys(rows[0] ?? {});
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: names.map((name) => ({
        name,
        data: rows.map((row) => row[name] ?? null),
        type: doubles.has(name)
          ? ('DOUBLE' as const)
          : timestamps.has(name)
            ? ('TIMESTAMP' as const)
            : ('STRING' as const),
        nullable: true,
      })),
      rowGroupSize,
    }),
  );
}
