import type { ExistingCommitment, UsageStream } from '../../shared/domain/engine/shapes/model';
import { ec2Platforms, rdsEngines } from '../../shared/domain/usage/exports/aws-instance-hours';
import { hoursInMonth, monthStartHour, monthsBetween } from '../../shared/domain/usage/usage-months';
import type { BillingLineItem } from './cur2-parquet';

/**
 * The billing lines AWS would export for a synthetic AWS fleet (docs/synthetic-usage.md, The
 * demo's AWS export): one instance-hour line per instance and hour it ran, `DiscountedUsage`
 * where an owned reservation of its type covers it (as AWS bills it), else `Usage`; beside them
 * the lines a real export holds that are not instance-hours (a daily EBS volume line per
 * instance, the period's tax), which the import counts and skips.
 */

const HOUR_MS = 3_600_000;

/** The usage type's region prefix (us-east-1 has none). */
const usageTypePrefixes: Readonly<Record<string, string>> = {
  'us-east-1': '',
  'us-east-2': 'USE2-',
  'us-west-1': 'USW1-',
  'us-west-2': 'USW2-',
  'eu-west-1': 'EU-',
  'eu-central-1': 'EUC1-',
};

/** The operation code AWS bills a platform (EC2) or engine (RDS) under: the inverse of the readers'. */
function operationOf(stream: UsageStream): string {
  const codes = stream.service === 'AmazonRDS' ? rdsEngines : ec2Platforms;
  const found = Object.entries(codes).find(([, name]) => name === stream.operatingSystem);
  if (!found) throw new Error(`no ${stream.service} operation code bills ${stream.operatingSystem}`);
  return found[0];
}

function usageTypeOf(stream: UsageStream): string {
  const prefix = usageTypePrefixes[stream.region] ?? '';
  if (stream.service === 'AmazonRDS') return `${prefix}InstanceUsage:${stream.instanceType}`;
  return `${prefix}${stream.tenancy === 'Dedicated' ? 'DedicatedUsage' : 'BoxUsage'}:${stream.instanceType}`;
}

/** CUR writes an EC2 instance's bare id (`i-0...`), an RDS instance's ARN. */
function lineResourceId(stream: UsageStream): string {
  return stream.service === 'AmazonEC2'
    ? (stream.resourceId.split('/').pop() ?? stream.resourceId)
    : stream.resourceId;
}

interface Described {
  readonly stream: UsageStream;
  readonly template: Omit<BillingLineItem, 'type' | 'start' | 'amount'>;
}

function described(stream: UsageStream): Described {
  const rds = stream.service === 'AmazonRDS';
  return {
    stream,
    template: {
      productCode: stream.service,
      usageType: usageTypeOf(stream),
      operation: operationOf(stream),
      resourceId: lineResourceId(stream),
      accountId: stream.accountId,
      region: stream.region,
      instanceType: stream.instanceType,
      operatingSystem: rds ? '' : stream.operatingSystem,
      databaseEngine: rds ? stream.operatingSystem : '',
      rate: stream.ondemandPrice,
      unit: 'Hrs',
      description: `$${stream.ondemandPrice} per On Demand ${stream.operatingSystem} ${stream.instanceType} Instance Hour`,
    },
  };
}

/** A line of the instance's (built field by field: a spread per line costs the seed more than the rest). */
function instanceLine(
  template: Described['template'],
  type: string,
  start: number,
  amount: number,
): BillingLineItem {
  return {
    type,
    start,
    productCode: template.productCode,
    usageType: template.usageType,
    operation: template.operation,
    resourceId: template.resourceId,
    accountId: template.accountId,
    region: template.region,
    instanceType: template.instanceType,
    operatingSystem: template.operatingSystem,
    databaseEngine: template.databaseEngine,
    amount,
    rate: template.rate,
    unit: template.unit,
    description: template.description,
  };
}

const sameKind = (commitment: ExistingCommitment, stream: UsageStream) =>
  commitment.instanceType === stream.instanceType &&
  commitment.accountId === stream.accountId &&
  commitment.region === stream.region &&
  (commitment.operatingSystem ?? 'Linux') === stream.operatingSystem &&
  (commitment.tenancy ?? 'Shared') === stream.tenancy;

/** The billing periods (`YYYY-MM`) the fleet's window touches. */
export function billingPeriodsOf(startHour: number, hours: number): string[] {
  return monthsBetween(startHour, startHour + hours - 1);
}

/**
 * The lines of one billing period of a fleet whose usage starts at `startHour` (epoch hours):
 * the hours of the window that fall in the period, in hour order.
 */
export function* fleetBillingLines(
  streams: readonly UsageStream[],
  startHour: number,
  period: string,
  commitments: readonly ExistingCommitment[],
): Generator<BillingLineItem> {
  const hours = streams[0]?.usage.length ?? 0;
  const periodStart = monthStartHour(period);
  const first = Math.max(startHour, periodStart);
  const end = Math.min(startHour + hours, periodStart + hoursInMonth(period));
  const fleet = streams.map(described);
  const reservations = commitments
    .filter((commitment) => commitment.instanceType !== null && commitment.quantity > 0)
    .map((commitment) => ({
      commitment,
      startHour: Date.parse(commitment.start) / HOUR_MS,
      endHour: Date.parse(commitment.end) / HOUR_MS,
    }));
  for (let hour = first; hour < end; hour++) {
    const start = hour * HOUR_MS;
    // Each reservation covers up to its quantity of running instances of its kind this hour.
    const left = reservations.map(({ commitment, startHour: from, endHour: to }) =>
      hour >= from && hour < to ? commitment.quantity : 0,
    );
    for (const { stream, template } of fleet) {
      const amount = stream.usage[hour - startHour] ?? 0;
      if (amount <= 0) continue;
      const covering = reservations.findIndex(
        ({ commitment }, index) => (left[index] ?? 0) > 0 && sameKind(commitment, stream),
      );
      if (covering >= 0) left[covering] = (left[covering] ?? 0) - 1;
      yield instanceLine(template, covering >= 0 ? 'DiscountedUsage' : 'Usage', start, amount);
    }
    if ((hour - periodStart) % 24 === 0) yield* volumeLines(fleet, start);
  }
  if (first < end) yield* taxLines(fleet, (end - 1) * HOUR_MS);
}

/** A gp3 volume's daily storage line per EC2 instance: usage of another kind, not instance-hours. */
function* volumeLines(fleet: readonly Described[], start: number): Generator<BillingLineItem> {
  for (const { stream, template } of fleet) {
    if (stream.service !== 'AmazonEC2') continue;
    yield {
      ...template,
      type: 'Usage',
      start,
      usageType: `${usageTypePrefixes[stream.region] ?? ''}EBS:VolumeUsage.gp3`,
      operation: 'CreateVolume-Gp3',
      resourceId: `vol-${template.resourceId.slice(2)}`,
      instanceType: '',
      operatingSystem: '',
      amount: 100 / 30,
      rate: 0.08 / 720,
      unit: 'GB-Mo',
      description: '$0.08 per GB-month of General Purpose (gp3) provisioned storage',
    };
  }
}

/** The period's tax, one line per account. */
function* taxLines(fleet: readonly Described[], start: number): Generator<BillingLineItem> {
  for (const accountId of new Set(fleet.map(({ stream }) => stream.accountId))) {
    yield {
      type: 'Tax',
      start,
      productCode: 'AmazonEC2',
      usageType: '',
      operation: '',
      resourceId: '',
      accountId,
      region: '',
      instanceType: '',
      operatingSystem: '',
      databaseEngine: '',
      amount: 1,
      rate: 0,
      unit: '',
      description: 'Tax for product code AmazonEC2',
    };
  }
}
