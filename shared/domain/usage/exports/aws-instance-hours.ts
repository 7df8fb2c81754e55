import type { DeploymentOption } from '../../engine/shapes/model';

/**
 * What the AWS billing data says about an EC2 or RDS instance-hour line (docs/import.md, Billing
 * exports): read from the usage type and operation, the product attributes when the export has
 * them, and the charge description when it has nothing else (FOCUS without AWS columns).
 */

/** Why a line is not an instance-hour of a resource the plans can cover. */
export const skipReasons = [
  'not_usage',
  'unused_commitment',
  'correction',
  'not_instance_hours',
  'spot',
  'dedicated_host',
  'no_resource_id',
  'no_price',
  'invalid',
  'future_hour',
] as const;
export type SkipReason = (typeof skipReasons)[number];

export interface AwsInstanceDescription {
  readonly service: 'AmazonEC2' | 'AmazonRDS';
  readonly instanceType: string;
  /** EC2: the platform (`Linux`, `Windows`, `RHEL`, ...); RDS: the database engine. */
  readonly operatingSystem: string;
  readonly tenancy: 'Shared' | 'Dedicated';
  readonly deploymentOption?: DeploymentOption;
}

/** The platform an EC2 `RunInstances` operation code names (the AMI's billing product). */
export const ec2Platforms: Readonly<Record<string, string>> = {
  RunInstances: 'Linux',
  'RunInstances:0002': 'Windows',
  'RunInstances:0010': 'RHEL',
  'RunInstances:000g': 'SUSE',
  'RunInstances:0004': 'Linux with SQL Std',
  'RunInstances:0100': 'Linux with SQL Ent',
  'RunInstances:0200': 'Linux with SQL Web',
  'RunInstances:0006': 'Windows with SQL Std',
  'RunInstances:0102': 'Windows with SQL Ent',
  'RunInstances:0202': 'Windows with SQL Web',
  'RunInstances:0800': 'Windows BYOL',
  'RunInstances:1010': 'RHEL with HA',
};

/** The engine an RDS `CreateDBInstance` operation code names. */
export const rdsEngines: Readonly<Record<string, string>> = {
  'CreateDBInstance:0002': 'MySQL',
  'CreateDBInstance:0014': 'PostgreSQL',
  'CreateDBInstance:0018': 'MariaDB',
  'CreateDBInstance:0016': 'Aurora MySQL',
  'CreateDBInstance:0021': 'Aurora PostgreSQL',
};

/** Product attributes an export may carry beside the usage type and operation. */
export interface AwsProductAttributes {
  readonly instanceType: string;
  readonly operatingSystem: string;
  readonly tenancy: string;
  readonly databaseEngine: string;
  readonly deploymentOption: string;
}

/** `USE1-BoxUsage:m5.large` -> `m5.large`; '' when the usage type names no instance type. */
function instanceTypeOfUsageType(usageType: string): string {
  const colon = usageType.lastIndexOf(':');
  return colon < 0 ? '' : usageType.slice(colon + 1);
}

/**
 * Classifies an AWS usage line of `productCode` by its usage type: an EC2 or RDS instance-hour
 * (with its description), or the reason it is skipped.
 */
export function awsInstanceHour(
  productCode: string,
  usageType: string,
  operation: string,
  product: AwsProductAttributes,
): AwsInstanceDescription | SkipReason {
  if (productCode === 'AmazonEC2') {
    if (usageType.includes('SpotUsage')) return 'spot';
    if (usageType.includes('HostUsage')) return 'dedicated_host';
    const dedicated = usageType.includes('DedicatedUsage');
    if (!dedicated && !usageType.includes('BoxUsage')) return 'not_instance_hours';
    const instanceType = product.instanceType || instanceTypeOfUsageType(usageType);
    if (!instanceType) return 'not_instance_hours';
    return {
      service: 'AmazonEC2',
      instanceType,
      operatingSystem: ec2Platforms[operation] ?? platformName(product.operatingSystem),
      tenancy: dedicated || product.tenancy === 'Dedicated' ? 'Dedicated' : 'Shared',
    };
  }
  if (productCode === 'AmazonRDS') {
    // `InstanceUsage:db.r5.large`, `Multi-AZUsage:db.r5.large` (and their IOOptimized variants).
    if (!/(?:^|-)(?:InstanceUsage|Multi-AZUsage)/.test(usageType)) return 'not_instance_hours';
    const instanceType = product.instanceType || instanceTypeOfUsageType(usageType);
    const engine = product.databaseEngine || rdsEngines[operation] || '';
    if (!instanceType.startsWith('db.') || !engine) return 'not_instance_hours';
    const multiAz = usageType.includes('Multi-AZ') || product.deploymentOption.startsWith('Multi-AZ');
    return {
      service: 'AmazonRDS',
      instanceType,
      operatingSystem: engine,
      tenancy: 'Shared',
      deploymentOption: multiAz ? 'Multi-AZ' : 'Single-AZ',
    };
  }
  return 'not_instance_hours';
}

/** The catalog's platform names: AWS pricing writes `Linux/UNIX` too; empty means Linux. */
function platformName(operatingSystem: string): string {
  if (operatingSystem === '' || operatingSystem === 'Linux/UNIX') return 'Linux';
  return operatingSystem;
}

/**
 * An EC2 instance type: family, a dot, size; both may hold hyphens (`u-6tb1.56xlarge`,
 * `c7i.metal-24xl`).
 */
const instanceTypePattern = '[a-z][a-z0-9-]*\\.[a-z0-9][a-z0-9-]*';
/** `$0.34 per On Demand Linux c5.2xlarge Instance Hour`, `... per Dedicated Windows m5.large Instance Hour` */
const onDemandDescription = new RegExp(
  `per (On Demand|Dedicated(?: Usage)?) (.+) (${instanceTypePattern}) Instance Hour`,
);
/** Reserved instance lines: `USD 0.0 hourly fee per Linux/UNIX (Amazon VPC), m5.large instance` */
const reservedDescription = new RegExp(`per (.+?)(?: \\(Amazon VPC\\))?, (${instanceTypePattern}) instance$`);

/**
 * An EC2 instance-hour read from the charge description alone (FOCUS without the AWS columns,
 * e.g. the FinOps Foundation's sample): the description names the platform and instance type.
 */
export function ec2HourOfDescription(description: string): AwsInstanceDescription | undefined {
  const onDemand = onDemandDescription.exec(description);
  if (onDemand) {
    return {
      service: 'AmazonEC2',
      instanceType: onDemand[3] as string,
      operatingSystem: platformName(onDemand[2] as string),
      tenancy: onDemand[1] === 'On Demand' ? 'Shared' : 'Dedicated',
    };
  }
  const reserved = reservedDescription.exec(description);
  if (reserved) {
    return {
      service: 'AmazonEC2',
      instanceType: reserved[2] as string,
      operatingSystem: platformName(reserved[1] as string),
      tenancy: 'Shared',
    };
  }
  return undefined;
}

/**
 * An RDS instance-hour's description, as AWS bills it: `$0.171 per RDS db.m5.large Single-AZ
 * instance hour (or partial hour) running MySQL` (`Multi-AZ`, and engines such as `PostgreSQL`,
 * `MariaDB`, `Oracle SE2 (BYOL)`, `SQL Server SE (LI)`).
 */
const rdsDescription =
  /per RDS (db\.[a-z0-9-]+\.[a-z0-9-]+) (Single-AZ|Multi-AZ) instance hour \(or partial hour\) running (.+)$/;

/** An RDS instance-hour read from the charge description alone (FOCUS without the AWS columns). */
export function rdsHourOfDescription(description: string): AwsInstanceDescription | undefined {
  const match = rdsDescription.exec(description);
  if (!match) return undefined;
  return {
    service: 'AmazonRDS',
    instanceType: match[1] as string,
    operatingSystem: match[3] as string,
    tenancy: 'Shared',
    deploymentOption: match[2] === 'Multi-AZ' ? 'Multi-AZ' : 'Single-AZ',
  };
}
