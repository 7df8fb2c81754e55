import type { DeploymentOption, OfferContractType, PaymentOption, Provider } from '../engine/shapes/model';
import type { ProviderTerm } from './catalog-terms';

/**
 * One provider's prices in one region as its own price list states them (docs/catalog.md, Price
 * lists): what the readers (aws-offer-file.ts, aws-savings-plan-file.ts, azure-retail-prices.ts)
 * produce, what a refresh stores, and what the catalog turns into on-demand prices and offers
 * (price-list-offers.ts). Every figure is per instance of its size, as the list gives it; nothing
 * is scaled from another size.
 */
export interface RegionPriceList {
  readonly provider: Provider;
  readonly region: string;
  /** What the figures come from, e.g. `AWS Price List AmazonEC2 20240111234520`. */
  readonly source: string;
  /** The publication date of each list read (ISO 8601), by list name (`AmazonEC2`, `retail-prices`). */
  readonly published: Readonly<Record<string, string>>;
  readonly instances: readonly ListedInstance[];
  readonly reservations: readonly ListedReservation[];
  readonly spendRates: readonly ListedSpendRate[];
}

/** An instance type's on-demand price in the region, for one OS (or database engine) and tenancy. */
export interface ListedInstance {
  /** `AmazonEC2`, `AmazonRDS`, `Virtual Machines`. */
  readonly service: string;
  readonly instanceType: string;
  readonly operatingSystem: string;
  readonly tenancy: string;
  /** RDS only; absent: Single-AZ. */
  readonly deploymentOption?: DeploymentOption;
  /** The list's own size factor (AWS `Normalization Size Factor`); absent when the list has none. */
  readonly sizeFactor?: number;
  /** $ per instance-hour. */
  readonly ondemand: number;
}

/** A reservation of one instance type as the list prices it: paid upfront and per hour, per instance. */
export interface ListedReservation {
  readonly service: string;
  readonly contractType: Extract<OfferContractType, 'standard_ris' | 'convertible_ris' | 'db_ris' | 'vm'>;
  readonly term: ProviderTerm;
  readonly paymentOption: PaymentOption;
  readonly instanceType: string;
  readonly operatingSystem: string;
  readonly tenancy: string;
  readonly deploymentOption?: DeploymentOption;
  readonly upfront: number;
  readonly recurring: number;
}

/** The hourly rate one instance-hour costs under a savings plan (AWS Compute/EC2 Instance, Azure). */
export interface ListedSpendRate {
  /** `ComputeSavingsPlans`, `EC2InstanceSavingsPlans`, `AzureSavingsPlanForCompute`. */
  readonly planType: string;
  readonly term: ProviderTerm;
  readonly paymentOption: PaymentOption;
  readonly instanceType: string;
  readonly operatingSystem: string;
  readonly tenancy: string;
  /** $ per instance-hour at the plan's rate. */
  readonly rate: number;
}

/** What a reader could not use, by reason, with the first example (kept small: a count and one line). */
export interface ReadSkips {
  readonly counts: Record<string, number>;
  readonly examples: Record<string, string>;
}

export function emptySkips(): ReadSkips {
  return { counts: {}, examples: {} };
}

export function skip(skips: ReadSkips, reason: string, example: string): void {
  skips.counts[reason] = (skips.counts[reason] ?? 0) + 1;
  skips.examples[reason] ??= example.slice(0, 200);
}

/** The price lists' payment options and terms, as both providers spell them. */
export function termOf(text: string): ProviderTerm | undefined {
  const normalized = text.trim().toLowerCase();
  if (normalized === '1yr' || normalized === '1 year' || normalized === '1') return 'one_year';
  if (normalized === '3yr' || normalized === '3 years' || normalized === '3') return 'three_year';
  return undefined;
}

export function paymentOptionOf(text: string): PaymentOption | undefined {
  return text === 'No Upfront' || text === 'Partial Upfront' || text === 'All Upfront' ? text : undefined;
}

/** A price as the lists write it (`0.0960000000`): a finite number >= 0, else undefined. */
export function priceOf(text: string | number | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = typeof text === 'number' ? text : Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
