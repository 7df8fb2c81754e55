/**
 * The plan engine's input model. Pure data: no I/O, no clocks, no AWS.
 *
 * Units: money in USD; `p`, `recurring` and hourly figures per hour; `upfront` a one-off total
 * per unit. A "unit" is one instance-hour for reservations (a normalized unit for size-flexible
 * groups) and one dollar-per-hour of commitment for savings plans.
 */

import type { CloudProvider } from '../../cloud-providers';

export type Provider = CloudProvider;

/**
 * Which usage a commitment covers (docs/plan-engine.md, Sharing scope): every account of the org and provider
 * (`organization`: AWS consolidated billing, Azure shared scope and GCP billing-account sharing do
 * this by default), or only the account that bought it (`account`: sharing turned off).
 */
export const commitmentSharings = ['organization', 'account'] as const;
export type CommitmentSharing = (typeof commitmentSharings)[number];

export type PaymentOption = 'No Upfront' | 'Partial Upfront' | 'All Upfront';

/** How an RDS database is deployed: a Multi-AZ instance needs twice the reserved units. */
export const deploymentOptions = ['Single-AZ', 'Multi-AZ'] as const;
export type DeploymentOption = (typeof deploymentOptions)[number];

/** The spec's resource-match `usage_type` values. */
export const usageTypes = [
  'running',
  'resource',
  'requests',
  'gb_seconds',
  'gb_hours',
  'cpu_hours',
  'cpu_utilization',
  'os_hours',
  'units_per_month',
  'gb_per_month',
  'provisioned_concurrency_gb_seconds',
  'provisioned_duration_gb_seconds',
  'unknown',
] as const;
export type UsageType = (typeof usageTypes)[number];

/** Contract terms the catalog offers (a subset of the spec's line-item contract terms). */
export type OfferTerm = 'one_year' | 'three_year' | 'one_year_gris' | 'thirty_day_gris';

/**
 * Contract types the catalog offers (values of the spec's `included_contract_types`).
 * `leased_*` types are the guaranteed (short lock-in) variants of the provider's own contracts.
 */
export type OfferContractType =
  | 'standard_ris'
  | 'convertible_ris'
  | 'compute_plans'
  | 'instance_plans'
  | 'db_ris'
  | 'vm'
  | 'leased_ris'
  | 'leased_compute_plans'
  | 'leased_vm';

/** The hours of the lookback window: hour t covers [start + t h, start + (t+1) h). */
export interface UsageWindow {
  /** ISO 8601 UTC hour start of hour 0. */
  readonly start: string;
  readonly hours: number;
}

/** One resource's hourly usage over the window (one per resource: the spec's Resource fields). */
export interface UsageStream {
  /** Stable resource key within the org, e.g. the provider's resource id. */
  readonly resourceId: string;
  readonly provider: Provider;
  readonly accountId: string;
  readonly region: string;
  /** Provider service name, e.g. `AmazonEC2`, `AmazonRDS`, `Virtual Machines`, `Compute Engine`. */
  readonly service: string;
  /** e.g. `m5.xlarge`, `db.r5.large`, `Standard_D4s_v5`, `n2-standard-8`. */
  readonly instanceType: string;
  /** e.g. `Linux`, `Windows`; for databases the engine, e.g. `MySQL`. */
  readonly operatingSystem: string;
  /** `Shared` or `Dedicated`. */
  readonly tenancy: string;
  /** Databases: `Single-AZ` or `Multi-AZ`. Absent: `Single-AZ`. */
  readonly deploymentOption?: DeploymentOption;
  readonly usageType: UsageType;
  /** e.g. `Hrs`. */
  readonly usageUnit: string;
  /** p: on-demand price per unit-hour of this resource. */
  readonly ondemandPrice: number;
  /**
   * Azure only: the on-demand price per unit-hour of the compute meter alone, the Linux rate of the
   * size (a Windows or other licensed VM pays its license on top). Azure reservations and the Azure
   * savings plan cover this part only (commitment-price.ts). Absent: the catalog does not price it.
   */
  readonly computePrice?: number;
  /** u[t]: units used in hour t; length = window.hours. */
  readonly usage: Float64Array;
}

/** A commitment the org already owns; applied to usage before anything is planned. */
export interface ExistingCommitment {
  readonly id: string;
  readonly provider: Provider;
  readonly accountId: string;
  readonly region: string;
  readonly contractType: OfferContractType;
  /** The reserved instance type; null for spend commitments (savings plans). */
  readonly instanceType: string | null;
  /** Units reserved (instances); 0 for spend commitments. */
  readonly quantity: number;
  /** $/h committed for spend commitments; 0 for reservations. */
  readonly hourlyCommitment: number;
  /** One-off total paid at purchase. */
  readonly upfrontCost: number;
  /** Per hour. */
  readonly recurringCost: number;
  /** ISO 8601; the commitment applies to hours in [start, end). */
  readonly start: string;
  readonly end: string;
  /** ISO 8601: until when it cannot be given back (= end except for guaranteed commitments). */
  readonly lockinEnd: string;
  /**
   * ISO 8601: when it was bought (a queued purchase is bought before it starts). Absent: its start.
   * Of commitments sharing usage, the one bought first is used first (docs/plan-engine.md, Owned first).
   */
  readonly purchasedAt?: string;
  /**
   * Instance reservations: the platform they apply to (`Linux`, `Windows`, ...); RDS reservations:
   * the database engine (`MySQL`, `PostgreSQL`, ...). Absent: `Linux`; for an RDS reservation, any
   * size-flexible engine (MySQL, PostgreSQL, MariaDB) of its family (reserved-scope.ts).
   */
  readonly operatingSystem?: string;
  /** Instance reservations: `Shared` or `Dedicated`. Absent: `Shared`. */
  readonly tenancy?: string;
  /** RDS reservations: `Single-AZ` or `Multi-AZ`. Absent: `Single-AZ`. */
  readonly deploymentOption?: DeploymentOption;
  /** EC2 Instance Savings Plans (`instance_plans`): the instance family they cover, e.g. `m5`. */
  readonly instanceFamily?: string;
  /** Absent: derived from upfront and recurring cost (all, partial or no upfront). */
  readonly paymentOption?: PaymentOption;
  /** Zonal reservations: the availability zone (exact size only); absent: regional. */
  readonly availabilityZone?: string;
}

/** What an offer covers. */
export type OfferScope =
  /** Exact match: one instance type in one region, OS and tenancy. */
  | {
      readonly kind: 'instance';
      readonly region: string;
      readonly instanceType: string;
      readonly operatingSystem: string;
      readonly tenancy: string;
    }
  /**
   * Size-flexible reservation: every size of `family` in the region, counted in normalized units
   * (AWS normalization factors; Azure instance-size-flexibility ratios). Prices are per normalized unit.
   */
  | {
      readonly kind: 'family';
      readonly region: string;
      readonly family: string;
      readonly operatingSystem: string;
      readonly tenancy: string;
    }
  /**
   * Spend commitment (savings plan): $/h at plan rates, applied each hour to eligible usage with
   * the highest discount first. A stream is eligible when a rate entry matches it; its plan rate
   * per unit-hour is `ondemandPrice * (1 - discount)`.
   */
  | {
      readonly kind: 'spend';
      readonly rates: readonly SpendRate[];
    };

/** Savings-plan discount for the streams it matches; an absent field matches any value. */
export interface SpendRate {
  readonly region?: string;
  /** Instance family, e.g. `m5` (AWS), `Dv5` (Azure). */
  readonly family?: string;
  readonly instanceType?: string;
  readonly operatingSystem?: string;
  readonly tenancy?: string;
  /** Fraction of the on-demand price saved, in [0, 1). */
  readonly discount: number;
}

export interface Offer {
  /** Stable UUID derived from the offer's identity (same catalog entry -> same id). */
  readonly id: string;
  readonly provider: Provider;
  readonly contractType: OfferContractType;
  readonly term: OfferTerm;
  readonly paymentOption: PaymentOption;
  readonly scope: OfferScope;
  /** T: hours billed by the full term. */
  readonly termHours: number;
  /** L: lock-in hours (= T except guaranteed offers, e.g. 720 for `thirty_day_gris`). */
  readonly lockinHours: number;
  /** One-off payment per unit. */
  readonly upfront: number;
  /** Recurring payment per unit-hour. */
  readonly recurring: number;
  /** Share of gross savings charged as the service's premium; 0 for plain provider offers. */
  readonly feeRate: number;
  /** Display fields carried into the line item's `offer` object. */
  readonly providerOfferingId: string;
  readonly displayName: string;
  readonly leasedDisplayName: string;
  readonly productDescription: string;
  /** `standard` or `convertible` for reservations; '' for savings plans. */
  readonly offeringClass: string;
  /** Provider plan type, e.g. `ComputeSavingsPlans`, `EC2InstanceSavingsPlans`; '' otherwise. */
  readonly planType: string;
  /** Where the price comes from; `illustrative` when no public source backs it. */
  readonly source: string;
  readonly illustrative: boolean;
}

/** A default plan's risk profile (docs/plan-engine.md). */
export interface PlanProfile {
  readonly name: 'Recommended' | 'Balanced' | 'High Savings';
  /** h: monthly hazard that the usage goes away. */
  readonly hazard: number;
}

/**
 * The region a line item of a savings plan whose rates span several regions names (its
 * `offer.region`), and so its purchase record: not a region of any price list.
 */
export const SPEND_ACROSS_REGIONS = 'global';
