import { deterministicUuid } from '../deterministic-id';
import type { ExistingCommitment, PaymentOption } from '../engine/shapes/model';
import { isoTimestamp } from '../iso-timestamps';

/**
 * The commitments an AWS account owns, as its describe calls answer them, in the plan engine's
 * model (docs/onboarding.md, What the sync reads). The shapes below are the fields read of
 * EC2 `DescribeReservedInstances`, RDS `DescribeReservedDBInstances` and `DescribeSavingsPlans`
 * (the SDK's own types, restated: the domain does not import the SDK). Only active commitments
 * are mapped; anything the engine does not model (a SageMaker savings plan, a payment-pending
 * reservation) is left out, by the caller asking for active ones and by these functions.
 */

/** What the describe calls answer: EC2 reservations, RDS reservations, savings plans. */
const ownedKinds = ['aws-reserved-instances', 'aws-reserved-db-instances', 'aws-savings-plan'] as const;

/** The commitment id of an owned reservation or savings plan: stable across syncs. */
export function awsOwnedCommitmentId(
  kind: (typeof ownedKinds)[number],
  accountId: string,
  providerId: string,
): string {
  return deterministicUuid(kind, accountId, providerId);
}

/**
 * The ids a describe answer would give the reservation or savings plan `providerId` of the
 * account (one per kind: a provider id alone does not say which it is).
 */
export function awsOwnedCommitmentIds(accountId: string, providerId: string): string[] {
  return ownedKinds.map((kind) => awsOwnedCommitmentId(kind, accountId, providerId));
}

export interface Ec2ReservedInstances {
  readonly ReservedInstancesId?: string;
  readonly InstanceType?: string;
  readonly AvailabilityZone?: string;
  /** `Region` or `Availability Zone`. */
  readonly Scope?: string;
  readonly Start?: Date;
  readonly End?: Date;
  /** Seconds. */
  readonly Duration?: number;
  readonly FixedPrice?: number;
  readonly UsagePrice?: number;
  readonly InstanceCount?: number;
  readonly ProductDescription?: string;
  readonly State?: string;
  /** `default`, `dedicated` or `host`. */
  readonly InstanceTenancy?: string;
  /** `standard` or `convertible`. */
  readonly OfferingClass?: string;
  readonly OfferingType?: string;
  readonly RecurringCharges?: readonly { readonly Amount?: number; readonly Frequency?: string }[];
}

export interface RdsReservedDBInstance {
  readonly ReservedDBInstanceId?: string;
  readonly DBInstanceClass?: string;
  readonly StartTime?: Date;
  /** Seconds. */
  readonly Duration?: number;
  readonly FixedPrice?: number;
  readonly UsagePrice?: number;
  readonly DBInstanceCount?: number;
  readonly ProductDescription?: string;
  readonly OfferingType?: string;
  readonly MultiAZ?: boolean;
  readonly State?: string;
  readonly RecurringCharges?: readonly {
    readonly RecurringChargeAmount?: number;
    readonly RecurringChargeFrequency?: string;
  }[];
}

export interface AwsSavingsPlan {
  readonly savingsPlanId?: string;
  readonly start?: string;
  readonly end?: string;
  readonly state?: string;
  readonly region?: string;
  readonly ec2InstanceFamily?: string;
  /** `Compute`, `EC2Instance`, `SageMaker`, ... */
  readonly savingsPlanType?: string;
  readonly paymentOption?: string;
  /** $/h, as a decimal string. */
  readonly commitment?: string;
  readonly upfrontPaymentAmount?: string;
  readonly recurringPaymentAmount?: string;
  readonly termDurationInSeconds?: number;
}

/** Where a reservation was described: its region and the account that owns it. */
export interface DescribedIn {
  readonly accountId: string;
  readonly region: string;
}

/** EC2's product descriptions -> the platforms usage carries (the export readers' names). */
const ec2Platforms: Readonly<Record<string, string>> = {
  'Linux/UNIX': 'Linux',
  Windows: 'Windows',
  'Red Hat Enterprise Linux': 'RHEL',
  'Red Hat Enterprise Linux with HA': 'RHEL with HA',
  'SUSE Linux': 'SUSE',
  'Linux with SQL Server Standard': 'Linux with SQL Std',
  'Linux with SQL Server Enterprise': 'Linux with SQL Ent',
  'Linux with SQL Server Web': 'Linux with SQL Web',
  'Windows with SQL Server Standard': 'Windows with SQL Std',
  'Windows with SQL Server Enterprise': 'Windows with SQL Ent',
  'Windows with SQL Server Web': 'Windows with SQL Web',
};

/** `Linux/UNIX (Amazon VPC)` is `Linux/UNIX` bought for a VPC: the same platform. */
export function ec2Platform(productDescription: string): string {
  const plain = productDescription.replace(/\s*\(Amazon VPC\)$/, '');
  return ec2Platforms[plain] ?? plain;
}

/** RDS's product descriptions (engine names, with a licence suffix) -> the engines usage carries. */
export function rdsEngine(productDescription: string): string {
  const engine = productDescription.toLowerCase().replace(/\((li|byol)\)$/, '');
  if (engine === 'mysql') return 'MySQL';
  if (engine === 'postgresql') return 'PostgreSQL';
  if (engine === 'mariadb') return 'MariaDB';
  if (engine === 'aurora' || engine === 'aurora-mysql') return 'Aurora MySQL';
  if (engine === 'aurora-postgresql') return 'Aurora PostgreSQL';
  if (engine.startsWith('oracle')) return 'Oracle';
  if (engine.startsWith('sqlserver')) return 'SQL Server';
  return productDescription;
}

/** The three payment options; the older utilization types (Heavy, Medium, Light) are not sold since 2014. */
export function paymentOptionOf(offeringType: string | undefined): PaymentOption | undefined {
  return offeringType === 'No Upfront' || offeringType === 'Partial Upfront' || offeringType === 'All Upfront'
    ? offeringType
    : undefined;
}

/** The hourly recurring charges (an RI's only recurring frequency is `Hourly`) plus the usage price. */
function hourlyCharges(
  charges: readonly { amount: number | undefined; frequency: string | undefined }[],
  usagePrice = 0,
) {
  return charges.reduce(
    (sum, charge) => sum + (charge.frequency === 'Hourly' ? (charge.amount ?? 0) : 0),
    usagePrice,
  );
}

function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null || value === '')
    throw new Error(`the provider answered no ${what}`);
  return value;
}

/** An EC2 reservation; null when it is not active. */
export function ec2ReservationCommitment(
  reservation: Ec2ReservedInstances,
  where: DescribedIn,
): ExistingCommitment | null {
  if (reservation.State !== 'active') return null;
  const id = required(reservation.ReservedInstancesId, 'ReservedInstancesId');
  const start = required(reservation.Start, `Start of ${id}`).getTime();
  const end =
    reservation.End?.getTime() ?? start + required(reservation.Duration, `Duration of ${id}`) * 1000;
  const paymentOption = paymentOptionOf(reservation.OfferingType);
  const zonal = reservation.Scope === 'Availability Zone' && reservation.AvailabilityZone;
  return {
    id: awsOwnedCommitmentId('aws-reserved-instances', where.accountId, id),
    provider: 'aws',
    accountId: where.accountId,
    region: where.region,
    contractType: reservation.OfferingClass === 'convertible' ? 'convertible_ris' : 'standard_ris',
    instanceType: required(reservation.InstanceType, `InstanceType of ${id}`),
    quantity: required(reservation.InstanceCount, `InstanceCount of ${id}`),
    hourlyCommitment: 0,
    upfrontCost: reservation.FixedPrice ?? 0,
    recurringCost: hourlyCharges(
      (reservation.RecurringCharges ?? []).map((charge) => ({
        amount: charge.Amount,
        frequency: charge.Frequency,
      })),
      reservation.UsagePrice,
    ),
    start: isoTimestamp(start),
    end: isoTimestamp(end),
    lockinEnd: isoTimestamp(end),
    operatingSystem: ec2Platform(reservation.ProductDescription ?? 'Linux/UNIX'),
    tenancy: reservation.InstanceTenancy === 'dedicated' ? 'Dedicated' : 'Shared',
    ...(paymentOption ? { paymentOption } : {}),
    ...(zonal ? { availabilityZone: reservation.AvailabilityZone } : {}),
  };
}

/** An RDS reservation; null when it is not active. */
export function rdsReservationCommitment(
  reservation: RdsReservedDBInstance,
  where: DescribedIn,
): ExistingCommitment | null {
  if (reservation.State !== 'active') return null;
  const id = required(reservation.ReservedDBInstanceId, 'ReservedDBInstanceId');
  const start = required(reservation.StartTime, `StartTime of ${id}`).getTime();
  const end = start + required(reservation.Duration, `Duration of ${id}`) * 1000;
  const paymentOption = paymentOptionOf(reservation.OfferingType);
  return {
    id: awsOwnedCommitmentId('aws-reserved-db-instances', where.accountId, id),
    provider: 'aws',
    accountId: where.accountId,
    region: where.region,
    contractType: 'db_ris',
    instanceType: required(reservation.DBInstanceClass, `DBInstanceClass of ${id}`),
    quantity: required(reservation.DBInstanceCount, `DBInstanceCount of ${id}`),
    hourlyCommitment: 0,
    upfrontCost: reservation.FixedPrice ?? 0,
    recurringCost: hourlyCharges(
      (reservation.RecurringCharges ?? []).map((charge) => ({
        amount: charge.RecurringChargeAmount,
        frequency: charge.RecurringChargeFrequency,
      })),
      reservation.UsagePrice,
    ),
    start: isoTimestamp(start),
    end: isoTimestamp(end),
    lockinEnd: isoTimestamp(end),
    operatingSystem: rdsEngine(required(reservation.ProductDescription, `ProductDescription of ${id}`)),
    deploymentOption: reservation.MultiAZ ? 'Multi-AZ' : 'Single-AZ',
    ...(paymentOption ? { paymentOption } : {}),
  };
}

const money = (text: string | undefined, what: string) => {
  const value = Number(text ?? '0');
  if (!Number.isFinite(value) || value < 0) throw new Error(`the provider answered ${what} ${text}`);
  return value;
};

/**
 * A Compute or EC2 Instance savings plan; null when it is not active or of another type. Compute
 * plans apply in every region (region ''); EC2 Instance plans in their region, to their family.
 */
export function savingsPlanCommitment(plan: AwsSavingsPlan, accountId: string): ExistingCommitment | null {
  if (plan.state !== 'active') return null;
  if (plan.savingsPlanType !== 'Compute' && plan.savingsPlanType !== 'EC2Instance') return null;
  const id = required(plan.savingsPlanId, 'savingsPlanId');
  const start = Date.parse(required(plan.start, `start of ${id}`));
  const end = Date.parse(required(plan.end, `end of ${id}`));
  if (!Number.isFinite(start) || !Number.isFinite(end))
    throw new Error(`the provider answered no dates of ${id}`);
  const instancePlan = plan.savingsPlanType === 'EC2Instance';
  const paymentOption = paymentOptionOf(plan.paymentOption);
  return {
    id: awsOwnedCommitmentId('aws-savings-plan', accountId, id),
    provider: 'aws',
    accountId,
    region: instancePlan ? required(plan.region, `region of ${id}`) : '',
    contractType: instancePlan ? 'instance_plans' : 'compute_plans',
    instanceType: null,
    quantity: 0,
    hourlyCommitment: money(plan.commitment, `commitment of ${id}`),
    upfrontCost: money(plan.upfrontPaymentAmount, `upfrontPaymentAmount of ${id}`),
    recurringCost: money(plan.recurringPaymentAmount, `recurringPaymentAmount of ${id}`),
    start: isoTimestamp(start),
    end: isoTimestamp(end),
    lockinEnd: isoTimestamp(end),
    ...(instancePlan
      ? { instanceFamily: required(plan.ec2InstanceFamily, `ec2InstanceFamily of ${id}`) }
      : {}),
    ...(paymentOption ? { paymentOption } : {}),
  };
}
